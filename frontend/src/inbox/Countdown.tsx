// A deadline counting down in the reader's time zone, as one sentence ("Deadline: …; 23 hours, 4 minutes
// left."), the time left in the reader's words (formatLeft: no leading zero units). The ticking is local
// (a timer redraws the remaining time); nothing here asks the server.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLeft } from '../i18n/format';
import { when } from '../runs/format';

export function remaining(
  deadline: Date,
  now: Date,
): { days: number; hours: number; minutes: number } | null {
  const left = Math.floor((deadline.getTime() - now.getTime()) / 60000);
  if (left < 0) return null;
  return { days: Math.floor(left / 1440), hours: Math.floor((left % 1440) / 60), minutes: left % 60 };
}

export function Countdown({ deadline }: { deadline: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  const left = remaining(new Date(deadline), now);
  return (
    <time className="countdown" dateTime={deadline}>
      {left
        ? t('ui_inbox_deadline_remaining', { deadline: when(deadline), left: formatLeft(left) })
        : t('ui_inbox_deadline_passed_at', { deadline: when(deadline) })}
    </time>
  );
}
