/* global document */
// Runs before any CSS or React, on every page (a file, not an inline script: the server's
// Content-Security-Policy allows no inline script). Keep it tiny, plain script (no modules), and in sync with
// src/lib/storage.ts (keys) and src/app/theme.ts (colours).
(function () {
  // The saved theme and language, so a dark-theme reload never flashes white.
  try {
    var d = document.documentElement,
      t = localStorage.getItem('theme'),
      l = localStorage.getItem('locale');
    if (t === 'dark') {
      d.setAttribute('data-theme', 'dark');
      d.style.colorScheme = 'dark';
    } else {
      d.setAttribute('data-theme', 'light');
    }
    if (l === 'en-US' || l === 'zh-CN') {
      d.lang = l;
    }
  } catch {
    /* storage unavailable: defaults */
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
