"""Removes what differs between two runs of one build (wall times, progress lines, zip timestamps), for tools/same-bits/run.

Usage: normalize.py FILE (rewritten in place) or normalize.py --npz FILE (prints a hash of each member's content).
"""
import hashlib
import re
import sys
import zipfile

# JSON values measured by a clock: times, rates and the ratios of times (bench sweep's 'sweepOverBestGemm', ...).
TIME_KEY = re.compile(r'("(?:seconds|\w*Seconds|\w*PerSecond|\w*Gflops|\w+Over\w+)"\s*:\s*)[-0-9.eE+]+')
DURATION = re.compile(r'\b[0-9]+(\.[0-9]+)? ?(s|ms|min)\b')
PROGRESS = re.compile(r'^logz: .*% done, about .* left$')


def table_row(line, timed):
    cells = line.split('|')
    return '|'.join('T' if i in timed else c for i, c in enumerate(cells))


def tables(text):
    """Blanks the cells of markdown-table columns whose header names a time ('seconds', 'time')."""
    out, timed = [], set()
    for line in text.split('\n'):
        if line.startswith('|'):
            cells = line.split('|')
            if not timed and not set(line) <= set('|-: '):
                header = [i for i, c in enumerate(cells) if 'second' in c or 'time' in c]
                if header:
                    timed = set(header)
                    out.append(line)
                    continue
            out.append(table_row(line, timed) if timed and not set(line) <= set('|-: ') else line)
        else:
            timed = set()
            out.append(line)
    return '\n'.join(out)


def normalize(text):
    text = TIME_KEY.sub(r'\1T', text)
    text = '\n'.join(l for l in text.split('\n') if not PROGRESS.match(l))
    # Tables inside JSON strings carry their newlines escaped.
    text = re.sub(r'"((?:\\.|[^"\\])*\\n(?:\\.|[^"\\])*)"',
                  lambda m: '"' + tables(m.group(1).replace('\\n', '\n')).replace('\n', '\\n') + '"', text)
    text = tables(text)
    return DURATION.sub('T', text)


if __name__ == '__main__':
    if sys.argv[1] == '--npz':
        z = zipfile.ZipFile(sys.argv[2])
        for info in z.infolist():
            print(info.filename, hashlib.sha256(z.read(info)).hexdigest())
    else:
        path = sys.argv[1]
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            text = f.read()
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(normalize(text))
