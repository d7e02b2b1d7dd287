/**
 * When DynamoDB's time to live may delete an item: its `ttl` attribute, in epoch seconds. One rule
 * for every item that expires: rounded up, so an item is kept at least `keepSeconds` after `from`
 * (a moment, or epoch milliseconds), never a fraction of a second less.
 */
export const expiresAfter = (from: Date | number, keepSeconds = 0): number =>
  Math.ceil((typeof from === 'number' ? from : from.getTime()) / 1000) + keepSeconds;
