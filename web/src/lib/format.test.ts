import { describe, expect, it } from 'vitest'
import { centsToInput, formatBRL, initials, parseBRL } from './format'

describe('money', () => {
  it.each([
    [2190, 'R$ 21,90'],
    [0, 'R$ 0,00'],
    [123450, 'R$ 1.234,50'],
    [100000000, 'R$ 1.000.000,00'],
  ])('formatBRL(%i) = %s', (c, s) => expect(formatBRL(c)).toBe(s))
  it.each([
    ['21,90', 2190],
    ['21.90', 2190],
    ['21', 2100],
    ['1.234,50', 123450],
    ['R$ 15,5', 1550],
    ['abc', null],
    ['-1', null],
    ['', null],
  ])('parseBRL(%s) = %s', (s, c) => expect(parseBRL(s)).toBe(c))
  it('round trips', () => expect(parseBRL(centsToInput(2190))).toBe(2190))
})

it('initials', () => {
  expect(initials('Ana Maria Souza')).toBe('AS')
  expect(initials('ana')).toBe('A')
  expect(initials('  ')).toBe('?')
})
