import { describe, expect, it } from 'vitest'
import { fillMessage, whatsappFor } from './whatsapp'

describe('whatsappFor', () => {
  it('adds Brazil’s 55 to a local number, also one whose area code is 55', () => {
    expect(whatsappFor('(11) 98888-7777')).toBe('https://wa.me/5511988887777')
    expect(whatsappFor('(55) 99999-1234')).toBe('https://wa.me/5555999991234')
    expect(whatsappFor('+55 11 98888-7777')).toBe('https://wa.me/5511988887777')
    expect(whatsappFor('11 3333-4444')).toBe('https://wa.me/551133334444')
  })
  it('prefills an encoded text', () => {
    expect(whatsappFor('11988887777', 'Olá, Ana & cia?')).toBe('https://wa.me/5511988887777?text=Ol%C3%A1%2C%20Ana%20%26%20cia%3F')
  })
})

describe('fillMessage', () => {
  const facts = { clientName: 'Maria da Silva', date: '2026-11-30', time: '10:00', serviceName: 'Sessão', professionalName: 'Dra. Ana', link: 'https://agendei.app/agende/ana' }
  it('fills every placeholder, the client by first name and the date in words', () => {
    expect(fillMessage('Olá, {nome}! {servico} com {profissional} em {data} às {hora}. {link}', facts)).toBe(
      'Olá, Maria! Sessão com Dra. Ana em segunda-feira, 30 de novembro de 2026 às 10:00. https://agendei.app/agende/ana',
    )
  })
  it("fills {link_cliente} with the client's private link, and leaves it empty without one", () => {
    expect(fillMessage('Seu link: {link_cliente}', { ...facts, clientLink: 'https://agendei.app/cancel/abc' })).toBe('Seu link: https://agendei.app/cancel/abc')
    expect(fillMessage('Seu link: {link_cliente}', facts)).toBe('Seu link: ')
  })
  it('leaves unknown braces as written', () => {
    expect(fillMessage('{nome} {outra}', facts)).toBe('Maria {outra}')
  })
})
