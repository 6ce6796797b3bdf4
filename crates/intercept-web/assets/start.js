// The start page: the server lists every config at once and solves their headline answers in the
// background; this asks again each second while any is still being solved and writes each answer in as it
// arrives, in the words the server renders (page.rs).
'use strict';

const WORDS = { solving: 'solving exactly…', too_large: 'too large to solve at once: open it and run Monte Carlo' };

function fill(scenarios) {
  let waiting = false;
  for (const s of scenarios) {
    const item = [...document.querySelectorAll('li[data-path]')].find((li) => li.dataset.path === s.path);
    const span = item && item.querySelector('.answer');
    if (!span) continue;
    waiting ||= s.answer_state === 'solving';
    span.dataset.state = s.answer_state;
    span.className = 'answer' + (s.answer_state === 'solved' ? '' : ' ' + s.answer_state.replace('_', '-'));
    if (s.answer_state === 'solved') span.textContent = s.answer;
    else if (WORDS[s.answer_state]) span.textContent = WORDS[s.answer_state];
    else span.remove();
  }
  return waiting;
}

async function ask() {
  const r = await fetch('/api/scenarios');
  if (!r.ok) return;
  if (fill((await r.json()).scenarios)) setTimeout(ask, 1000);
}

if (document.querySelector('.answer[data-state="solving"]')) setTimeout(ask, 300);
