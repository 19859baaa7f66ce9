import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { expect, test } from 'vitest'
import { useConfirm } from './confirm-dialog'

function Remove() {
  const [confirm, confirmation] = useConfirm()
  const [said, setSaid] = useState('')
  return (
    <>
      <button
        type="button"
        onClick={async () => setSaid(String(await confirm({ title: 'Excluir o serviço Sessão?', description: 'Esta ação não pode ser desfeita.', action: 'Excluir serviço', destructive: true })))}
      >
        Excluir
      </button>
      <p>resposta: {said}</p>
      {confirmation}
    </>
  )
}

test('confirm asks in an alert dialog named by its question, the safe answer focused, and resolves with the answer', async () => {
  const user = userEvent.setup()
  render(<Remove />)
  expect(screen.queryByRole('alertdialog')).toBeNull()

  await user.click(screen.getByRole('button', { name: 'Excluir' }))
  const question = screen.getByRole('alertdialog', { name: 'Excluir o serviço Sessão?' })
  expect(question).toHaveAccessibleDescription('Esta ação não pode ser desfeita.')
  expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveFocus()
  await user.click(screen.getByRole('button', { name: 'Cancelar' }))
  expect(await screen.findByText('resposta: false')).toBeInTheDocument()
  expect(screen.queryByRole('alertdialog')).toBeNull()

  await user.click(screen.getByRole('button', { name: 'Excluir' }))
  await user.click(screen.getByRole('button', { name: 'Excluir serviço' }))
  expect(await screen.findByText('resposta: true')).toBeInTheDocument()
})
