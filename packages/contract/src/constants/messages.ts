/** The message box's kinds (docs/product.md "Messages"): the popover's tabs, in order. */
export const MESSAGE_KINDS = ['message', 'notice', 'todo'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_READ_STATES = ['unread', 'read', 'all'] as const;
export type MessageReadState = (typeof MESSAGE_READ_STATES)[number];

/** What an item opens: an order, an announcement, the user's subscription or ledger. */
export const MESSAGE_TARGETS = ['order', 'announcement', 'subscription', 'ledger'] as const;
export type MessageTargetType = (typeof MESSAGE_TARGETS)[number];

/** How often an open tab asks for the unread counts (ms); new items show within this. */
export const MESSAGE_POLL_MS = 15_000;
