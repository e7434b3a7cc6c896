// The notices of src/app/urlNotices.ts under the header, each dismissable.
import { useState } from 'react';
import './orientation.css';

export function UrlNotices({ notices }: { notices: readonly string[] }) {
  const [shown, setShown] = useState(notices);
  if (shown.length === 0) return null;
  return (
    <div className="url-notices" role="status" aria-label="About this address">
      {shown.map((notice) => (
        <p key={notice}>
          {notice}{' '}
          <button type="button" onClick={() => setShown((all) => all.filter((n) => n !== notice))}>
            Dismiss
          </button>
        </p>
      ))}
    </div>
  );
}
