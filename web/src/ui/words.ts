/** A number with its noun, one or many: "1 active listing", "3 active listings", "1 book bought". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
