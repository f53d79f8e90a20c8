import { publicEnUS } from './screens/public.en-US.ts';
import type { Messages } from './zh-CN.ts';

/** English (the fallback language). Same keys as zh-CN.ts: the type makes sure of it. */
const enUS: Messages = {
  'app.name': 'ClearPlay',
  'app.title.suffix': 'ClearPlay Back Office',

  'menu.dashboard': 'Dashboard',
  'menu.dashboard.workplace': 'Workplace',
  'menu.order': 'Detection',
  'menu.order.inspect': 'Inspect',
  'menu.system': 'System',
  'menu.system.user': 'Users',
  'menu.system.log': 'Operation Log',
  'menu.system.role': 'Roles',
  'menu.system.dict': 'Dictionaries',
  'menu.dashboard.monitor': 'Monitor',
  'menu.visualization': 'Visualization',
  'menu.visualization.dataAnalysis': 'Data analysis',

  'route.home': 'Home',
  'route.linkstore': 'Link Store',
  'route.login': 'Login',
  'route.redirect': 'Redirecting',
  'route.message': 'Message centre',
  'route.userInfo': 'User centre',
  'route.userSetting': 'User settings',
  'route.notFound': 'Page not found',

  'request.error': 'Error',
  'request.transportError': 'Request Error',
  'request.unavailable': 'The service is briefly unavailable, please try again shortly',
  'request.loggedOut.title': 'You have been logged out',
  'request.loggedOut.content': 'You can cancel to stay on this page, or log in again.',
  'request.loggedOut.relogin': 'Re-Login',
  'request.loggedOut.cancel': 'Cancel',

  'login.title': 'Log in to ClearPlay',
  'login.subtitle': 'Back office of the anti-cheat detection service for game companion shops',
  'login.form.username.placeholder': 'Username',
  'login.form.password.placeholder': 'Password',
  'login.form.username.errMsg': 'Username cannot be empty',
  'login.form.password.errMsg': 'Password cannot be empty',
  'login.form.rememberPassword': 'Remember password',
  'login.form.forgetPassword': 'Forgot password',
  'login.form.register': 'Register',
  'login.form.login': 'Log in',
  'login.form.loggingIn': 'Logging in…',
  'login.form.login.errMsg': 'Login error, refresh and try again',
  'login.help.forgetPassword.title': 'Forgot password',
  'login.help.register.title': 'Register',
  'login.help.content':
    'This back office has no self-service sign-up or password reset. Accounts are opened and passwords reset by the detection service’s administrator: please contact yours.',
  'login.help.ok': 'Got it',
  'login.banner.slogan1.title': 'Catch every cheat',
  'login.banner.slogan1.sub': 'Inspectors check companion PCs remotely, and every order keeps its evidence images.',
  'login.banner.slogan2.title': 'A shared memory of cheaters',
  'login.banner.slogan2.sub': 'Public records let every shop see who has been caught before.',
  'login.banner.slogan3.title': 'Priced per result, clear accounts',
  'login.banner.slogan3.sub': 'Normal, cheating, suspicious or failed: each has its agreed price, and the balance is always in view.',

  'navbar.language': 'Language',
  'navbar.theme.toLight': 'Switch to light mode',
  'navbar.theme.toDark': 'Switch to dark mode',
  'navbar.fullscreen.enter': 'Full screen',
  'navbar.fullscreen.exit': 'Exit full screen',
  'navbar.logout': 'Log out',
  'navbar.menu.collapse': 'Collapse menu',
  'navbar.menu.expand': 'Expand menu',
  'navbar.menu.open': 'Open menu',
  'navbar.settings': 'Settings',

  'tabBar.actions': 'Tab actions',
  'tabBar.reload': 'Reload',
  'tabBar.close': 'Close this tab',
  'tabBar.closeLeft': 'Close tabs to the left',
  'tabBar.closeRight': 'Close tabs to the right',
  'tabBar.closeOthers': 'Close other tabs',
  'tabBar.closeAll': 'Close all tabs',

  'footer.text': 'ClearPlay · anti-cheat detection for game companion shops',

  'notFound.title': '404',
  'notFound.text': 'Sorry, the page you visited does not exist.',
  'notFound.back': 'Back',

  'comingSoon.title': 'Coming soon',
  'comingSoon.text': 'This page is being built; a later version brings its full function.',
  'page.workplace.description': 'Welcome, balance, pending and renewal orders, this month’s figures, announcements and quick operations.',
  // The reader's own actions (features/orders/permissions.ts), joined as a list in the page's language.
  'page.inspect.description': 'Detection records: {{actions}}.',
  'page.inspect.action.search': 'search',
  'page.inspect.action.create': 'create',
  'page.inspect.action.import': 'import',
  'page.inspect.action.export': 'export',
  'page.inspect.action.edit': 'edit',
  'page.inspect.action.download': 'download evidence',
  'page.user.description': 'Users, their prices, status and subscription periods.',
  'page.log.description': 'Operation log by module, action, operator, status and time.',
  'page.role.description': 'Roles, descriptions, the admin flag and the permission tree.',
  'page.dict.description': 'Dictionary types and their data.',

  'landing.title': 'ClearPlay anti-cheat detection',
  'landing.text':
    'Cheat detection for the computers of game companions: inspectors check remotely, record the result with evidence, and public records can be looked up by every shop.',
  'landing.login': 'Log in',
  'landing.linkstore': 'Link store',
  'linkstore.title': 'Link store',
  'linkstore.text': 'Links maintained by staff through a dictionary will be listed here.',
  'linkstore.back': 'Back to home',

  ...publicEnUS,

  'redirect.text': 'Redirecting…',

  // ---- layout: exception pages and their menu ----
  'menu.exception': 'Exceptions',
  'menu.exception.403': '403',
  'menu.exception.404': '404',
  'menu.exception.500': '500',
  'exception.403.title': '403',
  'exception.403.text': 'Sorry, you may not open this page.',
  'exception.500.title': '500',
  'exception.500.text': 'Sorry, something went wrong. Reload to try again; if it persists, tell your administrator.',
  'exception.reload': 'Reload',

  // ---- pages: the order form page, the order profile page and the result pages ----
  'menu.form': 'Forms',
  'menu.form.order': 'Record an order',
  'menu.profile': 'Profiles',
  'menu.profile.order': 'Order profile',
  'menu.result': 'Results',
  'menu.result.success': 'Submitted',
  'menu.result.fail': 'Submission failed',
};

export default enUS;
