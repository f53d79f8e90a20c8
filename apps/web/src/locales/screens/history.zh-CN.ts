/** 目标历史（issue 17）的界面文案；en-US 见 ./history.en-US.ts。 */
export const historyZhCN = {
  'history.title': '目标历史',
  'history.loading': '正在查询目标历史…',
  'history.none': '此微信号没有更早的检测记录',
  'history.earlier': '更早的检测：',
  'history.previousMac': '上次 MAC：',
  'history.flagged': '{{date}} 检测结果为“{{result}}”（{{game}}，MAC {{mac}}）',
  'history.otherChatIds': '这台机器还以 {{count}} 个其他微信号出现过',
  'history.sameMachine': '同一台机器的其他记录',
  'history.col.date': '检测时间',
  'history.proposed.on': '系统建议：已更换 MAC（上次为 {{mac}}）',
  'history.proposed.off': '系统建议：未更换 MAC',
  'history.proposed.overridden': '与系统建议不同，保存时将记入操作日志',
  'history.repeatMarker': '曾被检测出作弊',
  'history.repeatOnly': '仅看重复目标',
  'history.detail.title': '目标历史（本单之前）',
};
