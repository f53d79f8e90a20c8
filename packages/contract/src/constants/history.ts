/** Target history (decision 0059): bounds of the answer and the "changed MAC" proposal rule. */

/** Records per list (same chat ID, same machine under other chat IDs): the latest ones. */
export const HISTORY_LIST_MAX = 50;
/** Other chat IDs of a machine named in the summary. */
export const HISTORY_CHAT_IDS_MAX = 20;

/**
 * The proposed "changed MAC" flag: 1 when the latest earlier record of this chat ID was on
 * another machine, 0 when it was on this one or there is none; null when the MAC is not known yet.
 * Both MACs in normal form.
 */
export function proposeChangedMac(previousMac: string | null, mac: string | null): 0 | 1 | null {
  if (mac === null) return null;
  return previousMac !== null && previousMac !== mac ? 1 : 0;
}

/** Machines of a chat ID looked at when only the chat ID is known: the latest ones it was recorded on. */
export const HISTORY_MACHINES_MAX = 20;
