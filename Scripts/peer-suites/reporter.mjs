// A node:test reporter for Scripts/peer-suites.sh: one line per test (not per describe block),
// "pass" or "fail", a tab, and the test's path of names ("Valid images > svg > specs/...").
// A file that fails to load is one failing test named by the file.
export default async function* reporter(source) {
  const stack = [];
  for await (const event of source) {
    if (event.type === 'test:start') {
      stack[event.data.nesting] = event.data.name;
      stack.length = event.data.nesting + 1;
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      if (event.data.details?.type === 'suite') continue;
      const path = [...stack.slice(0, event.data.nesting), event.data.name].join(' > ');
      yield `${event.type === 'test:pass' ? 'pass' : 'fail'}\t${path}\n`;
    }
  }
}
