/** Chinese strings of the order screen's order-form part; spread into ./zh-CN.ts. Keys must match ./order-form.en-US.ts. */
export const orderFormZhCN = {
  'orderForm.create.title': '新建检测记录',
  'orderForm.edit.title': '编辑检测记录 {{code}}',
  'orderForm.section.target': '检测对象',
  'orderForm.section.detection': '检测信息',
  'orderForm.section.images': '证据图片',
  'orderForm.mac.invalid': 'MAC 地址格式不正确，可写作 AA-BB-CC-DD-EE-FF、aa:bb:cc:dd:ee:ff、aabbccddeeff 或 aabb.ccdd.eeff',
  'orderForm.mac.placeholder': '如 AA-BB-CC-DD-EE-FF',
  'orderForm.amount.auto': '按客户店铺在该检测结果下的价格自动填写',
  'orderForm.amount.pending': '选择客户店铺和检测结果后自动填写',
  'orderForm.amount.loading': '正在读取客户店铺的价格…',
  'orderForm.amount.price': '客户店铺价格：{{price}}',
  'orderForm.amount.usePrice': '使用此价格',
  'orderForm.inspector.locked': '检测员只能是你自己',
  'orderForm.ifPublic.help': '默认跟随客户店铺的“检测公开”设置',
  'orderForm.images.help': '最多 {{max}} 张；超过 4 MB 的图片分片上传，中断后重试会从断点继续',
  'orderForm.images.busy': '图片仍在上传，请等待上传完成后再保存',
} as const;
