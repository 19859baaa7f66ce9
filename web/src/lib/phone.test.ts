import { describe, expect, it } from 'vitest'
import { phoneDigits, whatsappNumber } from './phone'
import { whatsappFor } from './whatsapp'
import { cases } from './phone-cases.json'

// The same cases as the server's tests (internal/platform/brfmt), so the
// screens and the server read every number alike.
describe('the one phone rule', () => {
  it.each(cases)('$in: $why', (c) => {
    expect(phoneDigits(c.in)).toBe(c.national)
    expect(whatsappNumber(c.in)).toBe(c.whatsapp)
    expect(whatsappFor(c.in)).toBe(c.whatsapp === null ? undefined : `https://wa.me/${c.whatsapp}`)
  })
})
