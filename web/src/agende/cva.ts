import { clsx } from 'clsx'

type Variants = Record<string, Record<string, string>>
type Picks<V extends Variants> = { [K in keyof V]?: (keyof V[K] & string) | null }

/** What a variant function takes, as class-variance-authority's VariantProps. */
export type VariantProps<F> = F extends (props?: infer P) => string ? NonNullable<P> : never

/**
 * class-variance-authority's cva in the public pages' light build (~0.6 kB
 * gzipped of every page, for Button's variants): the base classes, then each
 * variant's classes in the order the variants are declared — the prop's
 * value, or the default's when the prop is undefined or empty, none when it
 * is null. No compound variants and no class/className props (the types
 * refuse them here); agende.test.tsx compares every Button against the real
 * cva.
 */
export function cva<V extends Variants>(base: string, config: { variants: V; defaultVariants?: Picks<V> }) {
  return (props?: Picks<V>) =>
    clsx(
      base,
      Object.keys(config.variants).map((k) => props?.[k] !== null && config.variants[k][props?.[k] || config.defaultVariants?.[k] || '']),
    )
}
