import { createElement, forwardRef, type ReactNode, type SVGProps } from 'react'

type IconData = { name: string; node: [string, Record<string, string>][]; aliases?: string[] }
type IconProps = SVGProps<SVGSVGElement> & { size?: number | string; children?: ReactNode }

/**
 * lucide-react's createLucideIcon in the public pages' light build (its
 * icon builder, attribute renaming, context and helpers are ~2 kB gzipped of
 * every page): each icon module of lucide-react calls this with its data,
 * and the icon renders the same <svg> — lucide's attributes in lucide's
 * order, its classes, aria-hidden unless the icon is labelled — for the
 * props the public pages pass (className, size, color, strokeWidth, aria-*,
 * title, children). absoluteStrokeWidth, nonScalingStroke and a
 * LucideProvider are not implemented; agende.test.tsx compares icons
 * against lucide's own and fails if a public page uses them.
 */
export default function createLucideIcon(icon: IconData) {
  return forwardRef<SVGSVGElement, IconProps>(function Icon({ color = 'currentColor', size = 24, strokeWidth = 2, className = '', children, ...rest }, ref) {
    const labelled =
      Boolean(children) ||
      Object.entries(rest).some(([k, v]) => (k.startsWith('aria-') || k === 'role' || k === 'title') && v != null)
    const classes = ['lucide', `lucide-${icon.name}`, ...(icon.aliases ?? []).map((a) => `lucide-${a}`), ...className.split(/\s+/)]
    return createElement(
      'svg',
      {
        ref,
        xmlns: 'http://www.w3.org/2000/svg',
        width: size,
        height: size,
        viewBox: '0 0 24 24',
        fill: 'none',
        stroke: color,
        strokeWidth,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: [...new Set(classes.filter(Boolean))].join(' '),
        ...(labelled ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...icon.node.map(([tag, attrs]) => createElement(tag, attrs)),
      children,
    )
  })
}
