import { Mail, MessageCircle } from 'lucide-react'
import { Link } from 'react-router'
import { useContacts } from '@/lib/config'
import { whatsappLink } from '@/lib/whatsapp'

export function SiteFooter() {
  const { supportEmail, supportWhatsapp } = useContacts()
  return (
    <footer className="border-t border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:grid-cols-3">
        <div>
          <p className="font-semibold text-brand-700 dark:text-brand-200">Agendei</p>
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Agendamento online para profissionais independentes e pequenas clínicas.</p>
        </div>
        <nav aria-label="Links do rodapé" className="grid gap-2 text-sm">
          <Link className="hover:underline" to="/policy">Política de Privacidade</Link>
          <Link className="hover:underline" to="/terms">Termos de Uso</Link>
          <Link className="hover:underline" to="/support">Suporte</Link>
          <Link className="hover:underline" to="/reviews">Avaliações</Link>
        </nav>
        <div className="grid gap-2 text-sm">
          <a className="inline-flex items-center gap-2 hover:underline" href={whatsappLink(supportWhatsapp, 'Olá! Preciso de ajuda com o Agendei.')} target="_blank" rel="noreferrer">
            <MessageCircle className="size-4" aria-hidden /> Fale conosco no WhatsApp
          </a>
          <a className="inline-flex items-center gap-2 hover:underline" href={`mailto:${supportEmail}`}>
            <Mail className="size-4" aria-hidden /> {supportEmail}
          </a>
        </div>
      </div>
      <p className="pb-6 text-center text-xs text-stone-500 dark:text-stone-400">© {new Date().getFullYear()} Agendei. Todos os direitos reservados.</p>
    </footer>
  )
}

export function WhatsAppFloat() {
  const { supportWhatsapp } = useContacts()
  return (
    <a
      href={whatsappLink(supportWhatsapp, 'Olá! Gostaria de saber mais sobre o Agendei.')}
      target="_blank"
      rel="noreferrer"
      aria-label="Conversar no WhatsApp"
      className="fixed bottom-5 right-5 z-40 flex size-14 items-center justify-center rounded-full bg-green-700 text-white shadow-lg hover:bg-green-800"
    >
      <MessageCircle className="size-7" aria-hidden />
    </a>
  )
}
