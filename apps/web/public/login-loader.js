/* global document, getComputedStyle */
// login.html's loader, also the prerendered public pages' (apps/web/vite.config.ts, prerenderLogin and
// publicHtml; a file, as the server's
// Content-Security-Policy allows no inline script). Once the first contentful paint is reported
// (at once when the tab is hidden or the prerendered form is, see index.html; after 2 s at the
// latest), adds the modulepreload links and the entry script that index.html has as tags. The
// entry and the preloads come from this script tag's data-entry and data-preloads (space-separated).
(function () {
  var me = document.currentScript;
  var entry = me.getAttribute('data-entry');
  var preloads = (me.getAttribute('data-preloads') || '').split(' ').filter(Boolean);
  var done = false;
  function load() {
    if (done) return;
    done = true;
    var h = document.head;
    preloads.forEach(function (u) {
      var l = document.createElement('link');
      l.rel = 'modulepreload';
      l.crossOrigin = '';
      l.href = u;
      h.appendChild(l);
    });
    var s = document.createElement('script');
    s.type = 'module';
    s.crossOrigin = '';
    s.src = entry;
    h.appendChild(s);
  }
  try {
    new PerformanceObserver(function (list) {
      if (list.getEntriesByName('first-contentful-paint').length) setTimeout(load, 0);
    }).observe({ type: 'paint', buffered: true });
  } catch {
    load();
  }
  var r = document.getElementById('root');
  if (document.visibilityState !== 'visible' || !r || getComputedStyle(r).visibility === 'hidden') load();
  setTimeout(load, 2000);
})();
