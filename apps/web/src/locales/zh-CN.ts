/**
 * Chinese (the default language). Flat keys: the dot is part of the key, not nesting.
 * en-US.ts must have exactly the same keys (its type is `Messages`).
 */
const zhCN = {
  'app.name': 'ClearPlay',
  'app.title.suffix': 'ClearPlay 检测后台',

  'menu.dashboard': '仪表盘',
  'menu.dashboard.workplace': '工作台',
  'menu.order': '检测管理',
  'menu.order.inspect': '检测记录',
  'menu.system': '系统管理',
  'menu.system.user': '用户管理',
  'menu.system.log': '操作日志',
  'menu.system.role': '角色管理',
  'menu.system.dict': '字典管理',
  'menu.dashboard.monitor': '实时监控',
  'menu.visualization': '数据可视化',
  'menu.visualization.dataAnalysis': '数据分析',

  'route.home': '首页',
  'route.linkstore': '链接商店',
  'route.login': '登录',
  'route.redirect': '跳转中',
  'route.message': '消息中心',
  'route.userInfo': '个人中心',
  'route.userSetting': '个人设置',
  'route.notFound': '页面不存在',
  // The certificate's route title (the route table names it), read by the back office too.
  'public.verify.title': '检测证书',

  'request.error': '错误',
  'request.transportError': '请求错误',
  'request.unavailable': '服务暂时不可用，请稍后重试',
  'request.loggedOut.title': '您已退出登录',
  'request.loggedOut.content': '您可以取消以留在此页面，或重新登录。',
  'request.loggedOut.relogin': '重新登录',
  'request.loggedOut.cancel': '取消',

  'login.title': '登录 ClearPlay',
  'login.subtitle': '游戏陪玩店反外挂检测服务后台',
  'login.form.username.placeholder': '用户名',
  'login.form.password.placeholder': '密码',
  'login.form.username.errMsg': '用户名不能为空',
  'login.form.password.errMsg': '密码不能为空',
  'login.form.rememberPassword': '记住密码',
  'login.form.forgetPassword': '忘记密码',
  'login.form.register': '注册账号',
  'login.form.login': '登录',
  'login.form.loggingIn': '登录中…',
  'login.form.login.errMsg': '登录出错，请刷新重试',
  'login.help.forgetPassword.title': '忘记密码',
  'login.help.register.title': '注册账号',
  'login.help.content': '本后台不开放自助注册和自助找回密码。账号的开通和密码重置由检测服务的管理员处理，请联系您的管理员。',
  'login.help.ok': '知道了',
  'login.banner.slogan1.title': '揪出每一个外挂',
  'login.banner.slogan1.sub': '检测员远程检测陪玩电脑，每一单都留有证据图片。',
  'login.banner.slogan2.title': '共享的作弊者记忆',
  'login.banner.slogan2.sub': '公开的检测记录让每家陪玩店都能查到曾被抓到的对象。',
  'login.banner.slogan3.title': '按结果计费，账目清楚',
  'login.banner.slogan3.sub': '正常、作弊、可疑、未通过，各有约定价格，余额一目了然。',

  'navbar.language': '切换语言',
  'navbar.theme.toLight': '切换为亮色模式',
  'navbar.theme.toDark': '切换为暗黑模式',
  'navbar.fullscreen.enter': '全屏',
  'navbar.fullscreen.exit': '退出全屏',
  'navbar.logout': '退出登录',
  'navbar.menu.collapse': '收起菜单',
  'navbar.menu.expand': '展开菜单',
  'navbar.menu.open': '打开菜单',
  'navbar.settings': '页面配置',

  'tabBar.actions': '标签操作',
  'tabBar.reload': '重新加载',
  'tabBar.close': '关闭当前标签页',
  'tabBar.closeLeft': '关闭左侧标签页',
  'tabBar.closeRight': '关闭右侧标签页',
  'tabBar.closeOthers': '关闭其它标签页',
  'tabBar.closeAll': '关闭全部标签页',

  'footer.text': 'ClearPlay · 游戏陪玩反外挂检测服务',

  'notFound.title': '404',
  'notFound.text': '抱歉，您访问的页面不存在。',
  'notFound.back': '返回',

  'comingSoon.title': '即将上线',
  'comingSoon.text': '这个页面还在建设中，后续版本会提供完整功能。',
  'page.workplace.description': '欢迎语、余额、待处理订单、续费订单、本月订单数据、公告和快捷操作。',
  // The reader's own actions (features/orders/permissions.ts), joined as a list in the page's language.
  'page.inspect.description': '检测记录的{{actions}}。',
  'page.inspect.action.search': '查询',
  'page.inspect.action.create': '新建',
  'page.inspect.action.import': '导入',
  'page.inspect.action.export': '导出',
  'page.inspect.action.edit': '编辑',
  'page.inspect.action.download': '证据下载',
  'page.user.description': '用户、价格、状态和订阅期的管理。',
  'page.log.description': '按模块、操作、操作人、状态和时间查询操作日志。',
  'page.role.description': '角色、说明、管理员标记和权限树。',
  'page.dict.description': '字典类型与字典数据的维护。',

  'redirect.text': '正在跳转…',

  // ---- layout: exception pages and their menu ----
  'menu.exception': '异常页',
  'menu.exception.403': '403',
  'menu.exception.404': '404',
  'menu.exception.500': '500',
  'exception.403.title': '403',
  'exception.403.text': '抱歉，您无权访问此页面。',
  'exception.500.title': '500',
  'exception.500.text': '抱歉，出错了。请刷新重试；问题仍在时请联系管理员。',
  'exception.reload': '刷新',

  // ---- pages: the order form page, the order profile page and the result pages ----
  'menu.form': '表单页',
  'menu.form.order': '录入检测订单',
  'menu.profile': '详情页',
  'menu.profile.order': '订单详情页',
  'menu.result': '结果页',
  'menu.result.success': '提交成功',
  'menu.result.fail': '提交失败',
} as const;

export type MessageKey = keyof typeof zhCN;
export type Messages = Record<MessageKey, string>;

export default zhCN satisfies Messages;
