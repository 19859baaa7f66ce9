import { clsx } from 'clsx'
import { Children, cloneElement, isValidElement, type HTMLAttributes, type ReactNode, type Ref } from 'react'

/**
 * Radix's Slot in the public pages' light build (~1.5 kB gzipped with its
 * compose-refs, for one `asChild` button there): the child element is
 * rendered with the slot's props under its own — classes joined, the
 * child's handlers, ref and other props kept over the slot's. The public
 * pages pass no handler to a slotted button (agende.test.tsx renders both
 * and compares).
 */
export function Slot({ children, ...props }: HTMLAttributes<HTMLElement> & { children?: ReactNode; ref?: Ref<HTMLElement> }) {
  const child = Children.only(children)
  if (!isValidElement<HTMLAttributes<HTMLElement>>(child)) return null
  return cloneElement(child, { ...props, ...child.props, className: clsx(props.className, child.props.className) })
}
