import { useState } from 'react'

/**
 * A switch saved as it is tapped. From the tap itself until the server's answer it shows where it was put, and is
 * disabled; then it shows what the server keeps (on an error, where it was). Set within the change event, so the
 * controlled input never snaps back for a tick while the save starts — a mutation's pending state arrives a tick
 * later, and a browser's check() saw the switch unchanged right after its click.
 */
export function usePlacedSwitch(saved: boolean) {
  const [placed, setPlaced] = useState<boolean | null>(null)
  return {
    checked: placed ?? saved,
    saving: placed !== null,
    /** Call first in onChange, with the input's new state. */
    place: setPlaced,
    /** Call when the save settles (success or error). */
    settle: () => setPlaced(null),
  }
}
