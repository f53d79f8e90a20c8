import type { historyZhCN } from './history.zh-CN.ts';

/** English strings of the target history; same keys as ./history.zh-CN.ts. */
export const historyEnUS: Record<keyof typeof historyZhCN, string> = {
  'history.title': 'Target history',
  'history.loading': 'Looking up the target’s history…',
  'history.none': 'No earlier record of this chat ID',
  'history.earlier': 'Earlier records:',
  'history.previousMac': 'Last MAC:',
  'history.flagged': '"{{result}}" on {{date}} ({{game}}, MAC {{mac}})',
  'history.otherChatIds': 'This machine was also seen under {{count}} other chat ID(s)',
  'history.sameMachine': 'Other records of this machine',
  'history.otherChatIdsOfTarget': 'The machines of this chat ID were also seen under {{count}} other chat ID(s)',
  'history.sameMachines': 'Other records of the machines this chat ID was seen on',
  'history.col.date': 'Date',
  'history.proposed.on': 'Proposed: MAC changed (last record on {{mac}})',
  'history.proposed.off': 'Proposed: MAC not changed',
  'history.proposed.overridden': 'Differs from the proposal: the operation log will record it',
  'history.repeatMarker': 'Caught cheating before',
  'history.repeatOnly': 'Repeat targets only',
  'history.detail.title': 'Target history (before this order)',
  'history.import.macChanged': 'Rows with a MAC change',
  'history.import.knownMachine': 'Rows on a machine known under another chat ID',
};
