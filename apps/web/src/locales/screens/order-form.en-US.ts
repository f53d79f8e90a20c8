import type { orderFormZhCN } from './order-form.zh-CN.ts';

/** English strings of the order screen's order-form part; same keys as ./order-form.zh-CN.ts. */
export const orderFormEnUS: Record<keyof typeof orderFormZhCN, string> = {
  'orderForm.create.title': 'New detection record',
  'orderForm.edit.title': 'Edit detection record {{code}}',
  'orderForm.section.target': 'Target',
  'orderForm.section.detection': 'Detection',
  'orderForm.section.images': 'Evidence images',
  'orderForm.mac.invalid': 'Invalid MAC address; write it as AA-BB-CC-DD-EE-FF, aa:bb:cc:dd:ee:ff, aabbccddeeff or aabb.ccdd.eeff',
  'orderForm.mac.placeholder': 'e.g. AA-BB-CC-DD-EE-FF',
  'orderForm.amount.auto': "Filled in from the client shop's price for this result",
  'orderForm.amount.pending': 'Filled in once the client shop and the result are chosen',
  'orderForm.amount.loading': "Reading the client shop's prices…",
  'orderForm.amount.price': "Client shop's price: {{price}}",
  'orderForm.amount.usePrice': 'Use this price',
  'orderForm.inspector.locked': 'The inspector can only be you',
  'orderForm.ifPublic.help': 'Defaults to the client shop\'s "detection public" setting',
  'orderForm.images.help':
    'Up to {{max}} images; images over 4 MB go in chunks, and a retry after an interruption resumes where it stopped',
  'orderForm.images.busy': 'Images are still uploading; save when the upload has finished',
};
