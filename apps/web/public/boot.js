/* global document, location */
// Runs before any CSS or React, on every page (a file, not an inline script: the server's
// Content-Security-Policy allows no inline script). Keep it tiny, plain script (no modules), and in sync with
// src/lib/storage.ts (keys), src/lib/settings.ts and src/lib/theme.ts (what they put on <html>).
(function () {
  // The saved theme and language, so a dark-theme reload never flashes white; the colour-weak
  // filter and the theme colour's 10 shades (--cp-primary-1…10), so neither flashes either.
  try {
    var d = document.documentElement,
      t = localStorage.getItem('theme'),
      l = localStorage.getItem('locale'),
      s = JSON.parse(localStorage.getItem('settings') || 'null'),
      p = JSON.parse(localStorage.getItem('theme-palette') || 'null'),
      shades,
      i;
    if (t === 'dark') {
      d.setAttribute('data-theme', 'dark');
      d.style.colorScheme = 'dark';
    } else {
      d.setAttribute('data-theme', 'light');
    }
    // On a public page (public.html, <html data-public>) the address's ?lang= wins (decision 0069).
    if (d.hasAttribute('data-public')) {
      var q = /[?&]lang=(zh-CN|en-US)(?:&|$)/.exec(location.search);
      if (q) l = q[1];
    }
    if (l === 'en-US' || l === 'zh-CN') {
      d.lang = l;
    }
    if (s && s.colorWeak === true) {
      d.style.filter = 'invert(80%)';
    }
    shades = p && (t === 'dark' ? p.dark : p.light);
    if (shades && shades.length === 10) {
      for (i = 0; i < 10; i++) {
        if (/^#[0-9a-fA-F]{6}$/.test(shades[i])) d.style.setProperty('--cp-primary-' + (i + 1), shades[i]);
      }
    }
  } catch {
    /* storage unavailable or unreadable: defaults */
  }
  // The prerendered login form (login.html): until React has taken it over, pressing Enter or
  // the button would submit it the browser's way, a GET with the password in the URL. Held
  // back instead, and marked on #root so LoginForm submits it once hydrated. main.tsx drops
  // data-prerendered, which ends this guard.
  document.addEventListener(
    'submit',
    function (e) {
      var r = document.getElementById('root');
      if (r && r.hasAttribute('data-prerendered')) {
        e.preventDefault();
        r.setAttribute('data-submit-pending', '');
      }
    },
    true,
  );
})();
