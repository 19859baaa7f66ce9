import { Link } from 'react-router'
import { Card } from '@/components/ui/card'
import { ApiError, errorMessage } from '@/lib/api/client'

/**
 * A records' screen that could not load: the server's message and, when the owner has not said which professional
 * they are ('not_a_professional'), the way to Profissionais where they say it.
 */
export function RecordsError({ error, fallback }: { error: unknown; fallback: string }) {
  const notProfessional = error instanceof ApiError && error.code === 'not_a_professional'
  return (
    <Card className="p-4" role="alert">
      <p className="text-sm">{errorMessage(error, fallback)}</p>
      {notProfessional ? (
        <p className="mt-2 text-sm">
          <Link to="/professionals" className="text-brand-700 hover:underline dark:text-brand-200">
            Ir para Profissionais
          </Link>
        </p>
      ) : null}
    </Card>
  )
}
