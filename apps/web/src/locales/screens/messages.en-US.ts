import type { messagesZhCN } from './messages.zh-CN.ts';

/** English strings of the message box; same keys as ./messages.zh-CN.ts. */
export const messagesEnUS: Record<keyof typeof messagesZhCN, string> = {
  'messages.bell': 'Messages',
  'messages.kind.message': 'Messages',
  'messages.kind.notice': 'Notices',
  'messages.kind.todo': 'To-dos',
  'messages.kind.all': 'All',
  'messages.allRead': 'Mark all read',
  'messages.viewMore': 'View more',
  'messages.empty': 'Nothing here',
  'messages.done': 'Done',
  'messages.read.unread': 'Unread',
  'messages.read.read': 'Read',
  'messages.read.all': 'All',
  'messages.field.read': 'State',
  'messages.field.type': 'Type',
  'messages.field.title': 'Title',
  'messages.field.content': 'Content',
  'messages.field.createdTime': 'Time',
  'messages.markRead': 'Mark read ({{count}})',
  'messages.page.description': 'Messages, notices and to-dos sent to you. Click a title to open what it is about and mark it read.',
};
