// Small DOM builders for the Link page. Text is only ever set through textContent; the one use of
// innerHTML is the constant icon markup.
import { ICONS, type IconName } from '../icons';

type AttributeValue = string | boolean | null | undefined;

/** `text`, `className` and `onClick` are handled specially; every other key becomes an attribute. */
export interface ElementProps {
  text?: string | null;
  className?: string | null;
  onClick?: (() => void) | null;
  [attribute: string]: AttributeValue | (() => void);
}

export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props?: ElementProps | null, kids?: readonly Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props) {
    for (const key of Object.keys(props)) {
      const value = props[key];
      // Absent and false values leave the attribute out (aria-describedby only when a hint exists).
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === 'function') node.addEventListener(key.slice(2).toLowerCase(), value);
      else if (key === 'text') node.textContent = String(value);
      else if (key === 'className') node.className = String(value);
      else node.setAttribute(key, value === true ? '' : value);
    }
  }
  for (const kid of kids ?? []) {
    if (kid !== null && kid !== undefined && kid !== false) node.append(kid);
  }
  return node;
}

export function icon(kind: IconName): HTMLDivElement {
  const node = el('div', { className: `icon ${kind}`, 'aria-hidden': 'true' });
  node.innerHTML = ICONS[kind];
  return node;
}

export function heading(text: string): HTMLHeadingElement {
  return el('h1', { id: 'fc-heading', tabindex: '-1', text });
}

export function para(text: string, className?: string): HTMLParagraphElement {
  return el('p', { className: className ?? null, text });
}

export function button(text: string, className: string, onClick: (() => void) | null, type: 'button' | 'submit' = 'button'): HTMLButtonElement {
  return el('button', { type, className, text, onClick });
}

export function field(id: string, labelText: string, attrs: Record<string, string>): { wrap: HTMLDivElement; input: HTMLInputElement } {
  const input = el('input', { id, name: id.replace('fc-', ''), ...attrs });
  return { wrap: el('div', { className: 'field' }, [el('label', { for: id, text: labelText }), input]), input };
}

/** A labelled select; options are [value, label] pairs. */
export function selectField(id: string, labelText: string, options: ReadonlyArray<readonly [string, string]>): { wrap: HTMLDivElement; select: HTMLSelectElement } {
  const select = el(
    'select',
    { id, name: id.replace('fc-', '') },
    options.map(([value, label]) => el('option', { value, text: label })),
  );
  return { wrap: el('div', { className: 'field' }, [el('label', { for: id, text: labelText }), select]), select };
}

export function alertBox(id: string): HTMLDivElement {
  return el('div', { id, className: 'alert', role: 'alert' });
}

export function avatar(inst: { name: string; primary_color?: string | null }): HTMLSpanElement {
  const node = el('span', { className: 'avatar', 'aria-hidden': 'true', text: (inst.name || '?').charAt(0).toUpperCase() });
  // The color comes from the institution catalogue; only a plain hex color is applied.
  if (typeof inst.primary_color === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(inst.primary_color)) node.style.backgroundColor = inst.primary_color;
  return node;
}

/** "a", "a and b", "a, b and c". */
export function listText(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
