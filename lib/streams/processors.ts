/**
 * The reactions to table changes, run in this order for every stream record by the one stream
 * consumer (functions/streams/consumer.ts). Each area registers its processor here.
 */
import { userSearchProcessor } from '../admin/user-search.ts';
import type { ChangeProcessor } from './types.ts';

export const processors: ChangeProcessor[] = [userSearchProcessor];
