import { BarChart3, CalendarClock, CalendarDays, Check, Infinity as InfinityIcon, Star, Users } from 'lucide-react'
import { Link } from 'react-router'
import { PublicPage } from '@/components/public-page'
import { WhatsAppFloat } from '@/components/site-footer'
import { Button } from '@/components/ui/button'
import { figures, PRICE_LABEL, testimonials } from '@/lib/marketing'

const features = [
  { icon: CalendarClock, title: 'Agendamento online 24h', text: 'Seus clientes escolhem serviço, profissional e horário pelo seu link, a qualquer hora, sem criar conta.' },
  { icon: Users, title: 'Gestão de clientes', text: 'Histórico, contatos e receita de cada cliente reunidos automaticamente a partir dos agendamentos.' },
  { icon: CalendarDays, title: 'Controle da agenda', text: 'Visualize o dia, a semana ou o mês, filtre por profissional e nunca mais tenha horários duplicados.' },
  { icon: BarChart3, title: 'Relatórios', text: 'Faturamento por mês, ticket médio e agendamentos futuros para decidir com números.' },
  { icon: InfinityIcon, title: 'Agendamentos ilimitados', text: 'Sem limite de clientes ou de agendamentos: o plano cresce com você.' },
]

const planItems = ['Agendamentos ilimitados', 'Página de agendamento personalizada', 'Gestão completa de clientes', 'Relatórios e estatísticas', 'Suporte prioritário']

export default function LandingPage() {
  return (
    <PublicPage>
      <section className="mx-auto max-w-6xl px-4 py-16 sm:py-24">
        <div className="max-w-3xl">
          <p className="inline-flex rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-800 dark:bg-brand-900/50 dark:text-brand-100">
            7 dias grátis · sem cartão de crédito
          </p>
          <h1 className="mt-5 text-4xl font-bold tracking-tight sm:text-5xl">Sua agenda cheia, sem trocar mensagens o dia inteiro.</h1>
          <p className="mt-5 text-lg text-stone-600 dark:text-stone-400">
            O Agendei é o agendamento online para psicólogos, personal trainers, terapeutas, nutricionistas, dentistas e salões. Cadastre seus serviços e horários, compartilhe seu link e receba agendamentos 24 horas por dia.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to="/signup">Começar teste grátis</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/login">Já tenho conta</Link>
            </Button>
          </div>
        </div>
        <dl className="mt-14 grid grid-cols-2 gap-4 sm:grid-cols-4">
          {figures.map((f) => (
            <div key={f.label} className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
              <dt className="sr-only">{f.label}</dt>
              <dd className="text-2xl font-bold text-brand-700 dark:text-brand-200">{f.value}</dd>
              <dd className="text-sm text-stone-600 dark:text-stone-400">{f.label}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="features" className="bg-white py-16 dark:bg-stone-900">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="features" className="text-3xl font-bold tracking-tight">Tudo o que o seu consultório precisa</h2>
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features.map(({ icon: Icon, title, text }) => (
              <div key={title} className="rounded-2xl border border-stone-200 p-6 dark:border-stone-800">
                <Icon className="size-8 text-brand-700 dark:text-brand-200" aria-hidden />
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="plan" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="plan" className="text-3xl font-bold tracking-tight">Um plano, tudo incluído</h2>
        <div className="mt-8 max-w-md rounded-2xl border-2 border-brand-600 bg-white p-8 shadow-sm dark:bg-stone-900">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-200">Assinatura</p>
          <p className="mt-3">
            <span className="text-4xl font-bold">{PRICE_LABEL}</span>
            <span className="text-stone-600 dark:text-stone-400">/mês</span>
          </p>
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Teste grátis por 7 dias, sem cartão. Cancele quando quiser.</p>
          <ul className="mt-6 grid gap-2 text-sm">
            {planItems.map((i) => (
              <li key={i} className="flex items-center gap-2">
                <Check className="size-4 text-brand-600" aria-hidden /> {i}
              </li>
            ))}
          </ul>
          <Button asChild size="lg" className="mt-8 w-full">
            <Link to="/signup">Começar teste grátis</Link>
          </Button>
        </div>
      </section>

      <section aria-labelledby="testimonials" className="bg-white py-16 dark:bg-stone-900">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="testimonials" className="text-3xl font-bold tracking-tight">Quem usa, recomenda</h2>
          <p className="mt-2 flex items-center gap-1 text-stone-600 dark:text-stone-400">
            <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden /> 4,9 de 5 em mais de 120 avaliações
          </p>
          <div className="mt-8 grid gap-6 md:grid-cols-3">
            {testimonials.map((t) => (
              <figure key={t.name} className="rounded-2xl border border-stone-200 p-6 dark:border-stone-800">
                <blockquote className="text-sm leading-relaxed">“{t.text}”</blockquote>
                <figcaption className="mt-4 text-sm">
                  <span className="font-semibold">{t.name}</span>
                  <span className="text-stone-600 dark:text-stone-400"> · {t.profession}</span>
                </figcaption>
              </figure>
            ))}
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 text-center">
        <h2 className="text-3xl font-bold tracking-tight">Comece hoje a receber agendamentos online</h2>
        <p className="mt-3 text-stone-600 dark:text-stone-400">Configure em minutos. 7 dias grátis, depois {PRICE_LABEL}/mês.</p>
        <Button asChild size="lg" className="mt-8">
          <Link to="/signup">Criar minha conta grátis</Link>
        </Button>
      </section>
      <WhatsAppFloat />
    </PublicPage>
  )
}
