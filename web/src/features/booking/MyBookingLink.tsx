import { MessageCircle } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { copyText } from '@/lib/clipboard'
import { whatsappLink } from '@/lib/whatsapp'

/**
 * The client's private link on the confirmation card: the page where they
 * see, move or cancel the booking. For a client who gave no e-mail it is the
 * only way back, so it is always shown, with a copy button and a message to
 * the client's own WhatsApp (wa.me without a number lets them pick the chat).
 */
export function MyBookingLink({ token, owner }: { token: string; owner: string }) {
  const url = `${window.location.origin}/cancel/${token}`
  const copy = () => copyText(url, 'Link copiado!', 'Não foi possível copiar', 'Toque e segure o link para copiá-lo.')
  return (
    <div className="mt-4 rounded-xl border border-green-300 bg-white p-3 text-sm dark:border-green-800 dark:bg-stone-900">
      <p className="font-medium">Seu link para remarcar ou cancelar</p>
      <p className="mt-1 text-stone-600 dark:text-stone-400">Guarde-o: ele é pessoal.</p>
      <a href={url} className="mt-2 block break-all text-brand-700 underline dark:text-brand-200">
        {url}
      </a>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          Copiar link
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={whatsappLink('', `Meu agendamento com ${owner}: ${url}`)} target="_blank" rel="noreferrer">
            <MessageCircle aria-hidden /> Enviar para meu WhatsApp
          </a>
        </Button>
      </div>
    </div>
  )
}
