/**
 * A small strict XML reader for tests: checks well-formedness (one root, proper
 * nesting, quoted attributes, only the five predefined entities or numeric ones,
 * no raw `<` or `&` in text) and returns an element tree to count testcases.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const fail = (why: string): never => {
    throw new Error(`invalid XML at ${i}: ${why}`);
  };
  const decode = (raw: string): string => {
    for (let k = 0; k < raw.length; k++) {
      if (raw[k] === '<') fail('raw < in text');
      if (raw[k] === '&') {
        ENTITY.lastIndex = k;
        if (!ENTITY.test(raw)) fail(`bad entity near ${raw.slice(k, k + 8)}`);
      }
    }
    return raw
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  };
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = lt === -1 ? xml.slice(i) : xml.slice(i, lt);
    if (text.trim()) {
      if (!stack.length) fail('text outside the root');
      stack[stack.length - 1]!.text += decode(text);
    }
    if (lt === -1) break;
    i = lt;
    const gt = xml.indexOf('>', i);
    if (gt === -1) fail('unterminated tag');
    const tag = xml.slice(i + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closes ${open?.name}`);
    } else {
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*$/.exec(body);
      if (!m) fail(`malformed tag <${tag}>`);
      const attrs: Record<string, string> = {};
      for (const a of m![2]!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (a[1]! in attrs) fail(`duplicate attribute ${a[1]}`);
        attrs[a[1]!] = decode(a[2]!);
      }
      const el: XmlElement = { name: m![1]!, attrs, children: [], text: '' };
      if (stack.length) stack[stack.length - 1]!.children.push(el);
      else if (root) fail('second root element');
      else root = el;
      if (!selfClosing) stack.push(el);
    }
    i = gt + 1;
  }
  if (stack.length) fail(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) fail('no root element');
  return root!;
}

export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(el);
  return out;
}
