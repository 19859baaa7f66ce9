import { Link } from 'react-router'
import { Button } from '@/components/ui/button'

export default function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
      <div aria-hidden="true" className="text-6xl font-bold text-brand-700 dark:text-brand-200">
        404
      </div>
      <h1 className="mt-4 text-2xl font-semibold">Página não encontrada</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">O endereço que você acessou não existe ou foi removido.</p>
      <Button asChild className="mt-8">
        <Link to="/">Voltar para o início</Link>
      </Button>
    </main>
  )
}
