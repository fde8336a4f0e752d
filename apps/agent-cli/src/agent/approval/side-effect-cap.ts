import type { SideEffects } from '../../tools/tool';

/** `--max-side-effect`: the most a call may do; anything above is refused without asking. */
export const SIDE_EFFECT_CAPS = ['read-only', 'mutating', 'destructive'] as const;
export type SideEffectCap = (typeof SIDE_EFFECT_CAPS)[number];

/** One ordered scale for tools and the cap: a destructive tool is a mutating one that may destroy data. */
function rank(sideEffects: SideEffects): number {
  if (sideEffects.level === 'read-only') return 0;
  return sideEffects.destructive ? 2 : 1;
}

export function sideEffectLabel(sideEffects: SideEffects): SideEffectCap {
  return SIDE_EFFECT_CAPS[rank(sideEffects)];
}

export function exceedsCap(sideEffects: SideEffects, cap: SideEffectCap): boolean {
  return rank(sideEffects) > SIDE_EFFECT_CAPS.indexOf(cap);
}

export function isSideEffectCap(value: string): value is SideEffectCap {
  return (SIDE_EFFECT_CAPS as readonly string[]).includes(value);
}
