// The page's script: it shows one step of the run. Every element whose state
// depends on the step carries the steps at which it holds, data-from and
// data-to; show(n) gives each its state at step n, as data-state (future,
// now or past), with the class fresh at its step From and gone at its step
// To, and the stylesheet does the rest. The step's own element, in the
// list, holds the counts and its place on the lanes' axis.
'use strict';
(function () {
  const steps = Array.from(document.querySelectorAll('li.step'));
  const total = steps.length;
  const ranges = Array.from(document.querySelectorAll('[data-from]'), function (el) {
    const to = el.dataset.to === undefined ? Infinity : Number(el.dataset.to);
    return { el: el, from: Number(el.dataset.from), to: to };
  });
  const parts = Array.from(document.querySelectorAll('section.part'));
  const $ = function (id) { return document.getElementById(id); };
  const slider = $('slider');
  const pos = $('pos');
  const counts = $('counts');
  const now = $('now');
  let at = -1;
  let opening = true;

  // plural fills a count into the caption that fits it.
  function plural(n, one, many) {
    return (n === 1 ? one : many).replace('{n}', n);
  }

  function show(n) {
    n = Math.max(0, Math.min(total, Math.round(Number(n)) || 0));
    if (n === at) {
      return;
    }
    at = n;
    for (const r of ranges) {
      const state = n < r.from ? 'future' : n < r.to ? 'now' : 'past';
      if (r.el.dataset.state !== state) {
        r.el.dataset.state = state;
      }
      r.el.classList.toggle('fresh', n === r.from);
      r.el.classList.toggle('gone', n === r.to);
    }
    steps.forEach(function (el, i) {
      el.classList.toggle('current', i + 1 === n);
      el.classList.toggle('ahead', i + 1 > n);
      if (i + 1 === n) {
        el.setAttribute('aria-current', 'step');
      } else {
        el.removeAttribute('aria-current');
      }
    });
    const step = steps[n - 1];
    const part = parts.find(function (p) { return p.dataset.state === 'now'; }) || parts[0];
    // Before its first step, a part shows the counts it starts with.
    const source = step || part;
    if (source) {
      const requests = Number(source.dataset.requests);
      const execs = Number(source.dataset.execs);
      $('turn').textContent = source.dataset.turn;
      $('steps').textContent = requests + execs;
      $('steps-what').textContent = plural(requests, counts.dataset.requests1, counts.dataset.requests) + ' · ' +
        plural(execs, counts.dataset.execs1, counts.dataset.execs);
      $('messages').textContent = source.dataset.messages;
    }
    const clock = step ? step.dataset.clock : '';
    $('clock').textContent = clock;
    $('clock-box').hidden = !clock;
    if (part) {
      const tracks = part.querySelector('.run[data-state="now"] .tracks');
      if (tracks) {
        tracks.style.setProperty('--now', step ? step.dataset.x : 0);
      }
    }
    pos.textContent = (n === 0 ? pos.dataset.before : pos.dataset.at.replace('{n}', n).replace('{m}', total)) +
      (part && part.dataset.short && parts.length > 1 ? ' · ' + part.dataset.short : '');
    slider.value = n;
    now.replaceChildren();
    if (step) {
      for (const child of step.children) {
        now.append(child.cloneNode(true));
      }
    } else {
      const p = document.createElement('p');
      p.className = 'before';
      p.textContent = pos.dataset.before;
      now.append(p);
    }
    measure();
    if (opening && step && part) {
      // A link to a step opens at its part, under the bar.
      part.scrollIntoView({ block: 'start' });
    }
    opening = false;
    if (step) {
      reveal(step, step.parentElement);
      // The window too, if the step is out of sight, where the steps stand
      // beside the state: the part's columns then fill the window below
      // the bar (scroll-padding-top). On a phone, the steps come last, and
      // the window stays.
      const r = step.getBoundingClientRect();
      const beside = getComputedStyle(step.closest('.col')).position === 'sticky';
      if (beside && (r.top < $('bar').offsetHeight || r.bottom > window.innerHeight)) {
        step.closest('.part-body').scrollIntoView({ block: 'start' });
        reveal(step, step.parentElement);
      }
    }
    if (part) {
      // The newest message of the history, or the reply that streams in.
      const col = part.querySelector('.history-col');
      const fresh = part.querySelectorAll('.msg.fresh, .draft[data-state="now"]');
      if (fresh.length) {
        reveal(fresh[fresh.length - 1], col);
      }
    }
    try {
      history.replaceState(null, '', '#step=' + n);
    } catch (e) {
      // A browser that keeps a file's address as it is: the step still shows.
    }
  }

  // reveal scrolls box, if it scrolls, so that el shows in it.
  function reveal(el, box) {
    if (!box || box.scrollHeight <= box.clientHeight) {
      return;
    }
    const top = el.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    if (top < box.scrollTop || top + el.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top - box.clientHeight / 3;
    }
  }

  // fromAddress reads the step from the address: #step=N.
  function fromAddress() {
    const m = /^#step=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  }

  $('first').addEventListener('click', function () { show(0); });
  $('prev').addEventListener('click', function () { show(at - 1); });
  $('next').addEventListener('click', function () { show(at + 1); });
  $('last').addEventListener('click', function () { show(total); });
  slider.addEventListener('input', function () { show(slider.value); });
  document.addEventListener('click', function (e) {
    const go = e.target.closest('[data-go]');
    const step = e.target.closest('li.step');
    if (go) {
      show(go.dataset.go);
    } else if (step && !now.contains(step)) {
      show(step.dataset.n);
    }
  });
  document.addEventListener('keydown', function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) {
      return; // the slider moves itself; a shortcut of the browser stays the browser's
    }
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: total }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      show(to);
    }
  });
  window.addEventListener('hashchange', function () { show(fromAddress()); });
  // The bar's height, for what sticks below it.
  function measure() {
    document.documentElement.style.setProperty('--bar-h', $('bar').offsetHeight + 'px');
  }
  window.addEventListener('resize', measure);
  show(fromAddress());
})();
