import { Mail, MessageCircle } from 'lucide-react'
import { PublicPage } from '@/components/public-page'
import { Button } from '@/components/ui/button'
import { useContacts } from '@/lib/config'
import { whatsappLink } from '@/lib/whatsapp'

const faqs = [
  {
    q: 'Como cancelo minha assinatura?',
    a: 'No painel, abra o cartão "Minha Assinatura" ou a página de assinatura e clique em cancelar. O acesso continua até o fim do período já pago.',
  },
  {
    q: 'Como compartilho meu link de agendamento?',
    a: 'Defina seu nome de usuário público nas configurações do perfil. O link aparece no painel com um botão para copiar e enviar aos seus clientes.',
  },
  {
    q: 'Como personalizo meus horários de atendimento?',
    a: 'Em "Horários e regras" (no menu), marque os dias em que você atende e defina o início e o fim de cada dia. Os clientes só veem horários livres dentro desses períodos.',
  },
]

export default function SupportPage() {
  const { supportEmail, supportWhatsapp } = useContacts()
  return (
    <PublicPage>
      <div className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="text-3xl font-bold tracking-tight">Central de Suporte</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">Estamos aqui para ajudar. Respondemos todos os e-mails em até 24 horas.</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg" className="bg-green-700 hover:bg-green-800">
            <a href={whatsappLink(supportWhatsapp, 'Olá! Preciso de ajuda com o Agendei.')} target="_blank" rel="noreferrer">
              <MessageCircle aria-hidden /> Falar no WhatsApp
            </a>
          </Button>
          <Button asChild size="lg" variant="outline">
            <a href={`mailto:${supportEmail}`}>
              <Mail aria-hidden /> Enviar e-mail
            </a>
          </Button>
        </div>
        <h2 className="mt-12 text-xl font-semibold">Perguntas frequentes</h2>
        <div className="mt-4 grid gap-3">
          {faqs.map((f) => (
            <details key={f.q} className="rounded-xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
              <summary className="cursor-pointer font-medium">{f.q}</summary>
              <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{f.a}</p>
            </details>
          ))}
        </div>
      </div>
    </PublicPage>
  )
}
