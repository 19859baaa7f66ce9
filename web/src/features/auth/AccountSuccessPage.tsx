import { CheckCircle2, Mail, MessageCircle } from 'lucide-react'
import { Link } from 'react-router'
import { PublicPage } from '@/components/public-page'
import { Button } from '@/components/ui/button'
import { useContacts } from '@/lib/config'
import { whatsappLink } from '@/lib/whatsapp'

export default function AccountSuccessPage() {
  const { supportEmail, supportWhatsapp } = useContacts()
  return (
    <PublicPage>
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <CheckCircle2 className="mx-auto size-14 text-brand-600" aria-hidden />
        <h1 className="mt-4 text-2xl font-bold">Conta criada com sucesso!</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">Você tem 7 dias grátis para testar todos os recursos.</p>
        <div className="mt-8 rounded-2xl border border-stone-200 bg-white p-6 text-left dark:border-stone-800 dark:bg-stone-900">
          <h2 className="font-semibold">Próximos passos</h2>
          <ol className="mt-3 grid list-decimal gap-2 pl-5 text-sm">
            <li>Configure seu perfil profissional</li>
            <li>Adicione seus serviços</li>
            <li>Defina seus horários de atendimento</li>
            <li>Compartilhe seu link de agendamento</li>
          </ol>
        </div>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button asChild size="lg">
            <Link to="/dashboard">Ir para o painel</Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to="/profile">Configurar perfil</Link>
          </Button>
        </div>
        <div className="mt-8 flex flex-col items-center gap-2 text-sm">
          <a className="inline-flex items-center gap-2 hover:underline" href={`mailto:${supportEmail}`}>
            <Mail className="size-4" aria-hidden /> {supportEmail}
          </a>
          <a className="inline-flex items-center gap-2 hover:underline" href={whatsappLink(supportWhatsapp)} target="_blank" rel="noreferrer">
            <MessageCircle className="size-4" aria-hidden /> WhatsApp do suporte
          </a>
        </div>
      </div>
    </PublicPage>
  )
}
