import { fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '@/test/render'
import { MyBookingLink } from './MyBookingLink'
import { PracticeHelp } from './PracticeHelp'

afterEach(() => vi.unstubAllGlobals())

const url = `${window.location.origin}/cancel/tok-privado_1`

describe('the private link on the confirmation card', () => {
  const show = () => renderRoutes([{ path: '/', Component: () => <MyBookingLink token="tok-privado_1" owner="Ana Souza" /> }], '/')

  it('shows the link and copies it', async () => {
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    show()
    expect(screen.getByRole('link', { name: url })).toHaveAttribute('href', url)
    // fireEvent: user-event would put its own clipboard in the page
    fireEvent.click(screen.getByRole('button', { name: 'Copiar link' }))
    expect(await screen.findByText('Link copiado!')).toBeInTheDocument()
    expect(writeText).toHaveBeenCalledWith(url)
  })

  it('says how to keep the link where the clipboard is unavailable', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined })
    show()
    fireEvent.click(screen.getByRole('button', { name: 'Copiar link' }))
    expect(await screen.findByText('Não foi possível copiar')).toBeInTheDocument()
    expect(screen.getByText(/Toque e segure o link para copiá-lo/)).toBeInTheDocument()
  })

  it("sends it to the client's own WhatsApp, with no number: they pick the chat", () => {
    show()
    const wa = screen.getByRole('link', { name: 'Enviar para meu WhatsApp' })
    const href = new URL(wa.getAttribute('href')!)
    expect(href.origin + href.pathname).toBe('https://wa.me/')
    expect(href.searchParams.get('text')).toBe(`Meu agendamento com Ana Souza: ${url}`)
  })
})

describe("the public pages' help footer", () => {
  it("reaches the practice: its WhatsApp and its e-mail, not Agendei's support", () => {
    renderRoutes([{ path: '/', Component: () => <PracticeHelp whatsapp="+5511988887777" email="contato@clinica.com.br" /> }], '/')
    expect(screen.getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/)
    expect(screen.getByRole('link', { name: 'E-mail' })).toHaveAttribute('href', 'mailto:contato@clinica.com.br')
  })

  it('offers no help line when the practice shows no contact', () => {
    renderRoutes([{ path: '/', Component: () => <PracticeHelp whatsapp="" email="" /> }], '/')
    expect(screen.queryByText('Precisa de ajuda com o agendamento?')).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'WhatsApp' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Agendei' })).toHaveAttribute('href', '/')
  })
})
