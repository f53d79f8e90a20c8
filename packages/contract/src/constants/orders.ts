/** Which user price each result charges (docs/product.md "Money"). */
export const PRICE_FIELD_OF_RESULT = {
  0: 'defaultPrice',
  1: 'defaultPriceCheat',
  2: 'defaultPriceNotPass',
  3: 'defaultPriceSuspect',
} as const;

/** Dictionary types behind order fields. */
export const ORDER_DICTS = { result: 'order_result', game: 'game', ifPublic: 'public_private', ifChangedMac: 'changed_mac' } as const;

export const ORDER_IMAGE_KINDS = ['certImages', 'proofImages', 'personCertImages'] as const;
export type OrderImageKind = (typeof ORDER_IMAGE_KINDS)[number];
/** At most this many images per kind. */
export const ORDER_IMAGES_MAX = 20;

export const ORDER_TEXT_MAX = { objWechat: 64, objWechatName: 64, gameName: 64, objClientName: 100, description: 1000 } as const;

/** Import/export columns in order: the field and its header key under `order.field.*`. */
export const ORDER_SHEET_COLUMNS = [
  'objWechat',
  'objWechatName',
  'gameName',
  'mac',
  'installationTime',
  'result',
  'userName',
  'objClientName',
  'inspectorName',
  'amount',
  'ifPublic',
  'ifChangedMac',
  'description',
] as const;
export type OrderSheetColumn = (typeof ORDER_SHEET_COLUMNS)[number];
