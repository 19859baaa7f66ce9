import { render, screen } from '@testing-library/react'
import { expect, it } from 'vitest'
import { Avatar } from './avatar'

it('shows the photo with its alt, or the decorative initials', () => {
  const { container, rerender } = render(<Avatar name="Helena Prado" photoUrl="/files/p.jpg" size="md" />)
  const img = screen.getByRole('img', { name: 'Foto de Helena Prado' })
  expect(img).toHaveAttribute('width', '64')
  expect(img).toHaveClass('size-16', 'rounded-full', 'object-cover')
  rerender(<Avatar name="  helena   maria prado " photoUrl="" size="xl" />)
  expect(screen.queryByRole('img')).toBeNull()
  const circle = container.firstElementChild!
  expect(circle).toHaveTextContent('HP')
  expect(circle).toHaveAttribute('aria-hidden', 'true')
  expect(circle).toHaveClass('size-28', 'text-3xl', 'rounded-full')
})

// One circle for a person or practice: no screen draws its own again.
const sources = Object.entries(import.meta.glob<string>(['/src/**/*.tsx', '!/src/**/*.test.tsx', '!/src/components/ui/avatar.tsx'], { query: '?raw', import: 'default', eager: true }))

it('is the only place the initials are drawn', () => {
  expect(sources.length).toBeGreaterThan(50)
  expect(sources.filter(([, text]) => /\binitials\(/.test(text)).map(([file]) => file)).toEqual([])
})
