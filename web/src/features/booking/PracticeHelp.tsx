import { Mail, MessageCircle } from 'lucide-react'
import { Link } from 'react-router'
import { whatsappFor } from '@/lib/whatsapp'

/**
 * The public pages' help footer: a client's questions about a booking go to
 * the practice (its WhatsApp and contact e-mail, when it shows them), not to
 * Agendei's support, which knows nothing of the booking.
 */
export function PracticeHelp({ whatsapp, email }: { whatsapp: string; email: string }) {
  const wa = whatsappFor(whatsapp, 'Olá! Preciso de ajuda com um agendamento.')
  return (
    <footer className="mt-10 border-t border-stone-200 pt-6 text-center text-sm text-stone-600 dark:border-stone-800 dark:text-stone-400">
      {wa || email ? (
        <>
          <p>Precisa de ajuda com o agendamento?</p>
          <div className="mt-2 flex justify-center gap-4">
            {wa ? (
              <a className="inline-flex items-center gap-1 hover:underline" href={wa} target="_blank" rel="noreferrer">
                <MessageCircle className="size-4" aria-hidden /> WhatsApp
              </a>
            ) : null}
            {email ? (
              <a className="inline-flex items-center gap-1 hover:underline" href={`mailto:${email}`}>
                <Mail className="size-4" aria-hidden /> E-mail
              </a>
            ) : null}
          </div>
        </>
      ) : null}
      <p className="mt-4 text-xs">
        Agendamento online por{' '}
        <Link to="/" className="hover:underline">
          Agendei
        </Link>
      </p>
    </footer>
  )
}
