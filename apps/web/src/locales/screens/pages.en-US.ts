import type { pagesZhCN } from './pages.zh-CN.ts';

/** English strings of the order form page, the order profile page and the result pages; same keys as ./pages.zh-CN.ts. */
export const pagesEnUS: Record<keyof typeof pagesZhCN, string> = {
  'pages.form.description':
    "Record a detection order: the same fields and checks as the dialog, the amount filled from the client shop's price.",
  'pages.form.submit': 'Submit the order',
  'pages.form.reset': 'Reset',

  'pages.result.form.title': 'Order recorded',
  'pages.result.form.code': 'Verification code:',
  'pages.result.form.text': 'The detection order is saved and its amount charged to the client shop.',
  'pages.result.toProfile': "View the order's profile",
  'pages.result.recordAnother': 'Record another',
  'pages.result.toList': 'Go to the order list',
  'pages.result.backToForm': 'Back to the form',
  'pages.result.fail.title': 'Submission failed',
  'pages.result.fail.text': 'The order was not saved. Correct what is listed below and submit again; your input is kept.',
  'pages.result.fail.reasons': 'Why it failed:',
  'pages.result.fail.noReason': 'The server gave no reason; try again later.',
  'pages.result.import.title': 'Import complete',
  'pages.result.import.partial': 'Partly imported',
  'pages.result.import.text': '{{imported}} of {{total}} rows imported as orders.',
  'pages.result.import.failed': 'Import failed',
  'pages.result.import.failedText': '{{rejected}} of {{total}} rows rejected; no order was imported.',
  'orderIo.import.resultPage': 'Open the result page',

  'pages.profile.title': 'Order {{code}}',
  'pages.profile.description': "Every field of the order, its evidence, its verification code and QR code, and the order's ledger entries.",
  'pages.profile.section.order': 'Order',
  'pages.profile.section.images': 'Evidence images',
  'pages.profile.section.verify': 'Verification',
  'pages.profile.section.ledger': 'Ledger',
  'pages.profile.verify.public': 'Scan the code or open the URL to see this detection certificate.',
  'pages.profile.verify.private': 'This order is private: the certificate page shows the record only once it is public.',
  'pages.profile.ledger.hidden': "Another shop's public order shows no amount and no ledger.",
  'pages.profile.ledger.none': 'No ledger entry for this order (its amount is 0)',
  'pages.profile.notFound': 'Order not found',
  'pages.profile.notFoundText': 'There is no such order, or you may not see it.',
  'pages.profile.failed': 'The order could not be read',
  'pages.profile.retry': 'Retry',
  'order.profile': 'Profile',
};
