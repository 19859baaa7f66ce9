import { Link } from 'react-router'
import { Brand } from './brand'
import { ThemeToggle } from './theme-toggle'
import { Button } from './ui/button'

export function PublicHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-stone-50/90 backdrop-blur dark:border-stone-800 dark:bg-stone-950/90">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Brand />
        <nav aria-label="Conta" className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <Button asChild variant="ghost" size="sm">
            <Link to="/login">Entrar</Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/signup">Cadastrar</Link>
          </Button>
        </nav>
      </div>
    </header>
  )
}
