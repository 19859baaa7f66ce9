import { useEffect } from 'react'
import BookingPage from './BookingPage'

/**
 * The booking form inside an owner's own site (the widget's iframe): the
 * same form, and its height told to the page around it, which sets the
 * iframe's height so the form never scrolls inside a box.
 */
export default function EmbedPage() {
  useEffect(() => {
    if (window.parent === window) return
    const report = () => window.parent.postMessage({ type: 'agendei:height', height: document.documentElement.scrollHeight }, '*')
    const observer = new ResizeObserver(report)
    observer.observe(document.body)
    report()
    return () => observer.disconnect()
  }, [])
  return <BookingPage variant="form" />
}
