#!/usr/bin/env python3
"""Writes hot-code.order: the functions a release areasd runs, in the order its link lays them out.

The kernel maps a program's code 64 KiB at a time around each page it runs, so a daemon that runs
a few hundred functions spread over its whole binary keeps all of it resident. A release build
gives each function a section of its own (Package.swift), and the link places the sections this
file names first, in its order: what serving runs, then what the fetch worker runs, then what a
refresh runs. A function the file does not name (new code, a renamed one) is laid out after them,
as before; the file only needs writing again when the layout has drifted.

Run from the package folder after `swift build -c release`; needs perf (Debian: linux-perf):

    python3 Sources/areasd/hot-code.py

It samples the release daemon serving every kind of question over its socket and HTTP (the
bundled samples), then through three runs of `areas-bench memory --points 100000` (each two
refreshes through the fetch worker and 20,000 questions). Sampling finds the functions that take
time; one that runs rarely may be missed, and is then laid out with the rest.
"""
import json, math, os, random, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
RELEASE = '.build/release'
# The code a static build links in along with areasd's own: the Swift runtime, Foundation, dispatch.
LAID_OUT = ('areasd', 'libswift', 'libFoundation', 'lib_Foundation', 'libdispatch', 'libBlocksRuntime')


def fail(message):
    sys.exit('hot-code.py: ' + message)


def samples(data, pids=None):
    """(pid, symbol) counts of `perf record` output, for code a static areasd links in."""
    out = subprocess.run(['perf', 'script', '-i', data, '-F', 'pid,ip,sym,dso', '--no-demangle'],
                         capture_output=True, text=True).stdout
    counts = Counter()
    for line in out.splitlines():
        parts = line.split()  # pid, address, symbol, (library)
        if len(parts) != 4 or not parts[3].startswith('(') or parts[2].endswith('@plt') or parts[2] == '[unknown]':
            continue
        dso = os.path.basename(parts[3].strip('()'))
        if dso.startswith(LAID_OUT) and (pids is None or parts[0] in pids):
            counts[(parts[0], parts[2])] += 1
    return counts


def wait_for(path, deadline):
    """Whether the daemon at `path` serves its areas before `deadline`."""
    while time.time() < deadline:
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(2)
                s.connect(path)
                s.sendall(b'{"op":"near","lat":37.5299,"lon":126.9648,"k":1}\n')
                if b'"id"' in s.recv(65536):
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def tile(lat, lon, zoom=15):
    """The Web Mercator tile `x/y` at `zoom` holding the point."""
    n = 2 ** zoom
    return f'{int((lon + 180) / 360 * n)}/{int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)}'


def ask_everything(socket_path, http, rounds, seconds=None):
    """Every kind of question, around the served areas, over the socket and HTTP."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    s.connect(socket_path)
    f = s.makefile('rwb')

    def ask(question):
        f.write((json.dumps(question, ensure_ascii=False) + '\n').encode())
        f.flush()
        return json.loads(f.readline())

    def get(path):
        try:
            with urllib.request.urlopen(f'http://{http}{path}', timeout=30) as answer:
                answer.read()
        except OSError:
            pass  # a 4xx or 5xx still ran the code that answered it

    points = [(a['lat'], a['lon']) for a in ask({"op": "bbox", "south": 33, "west": 124, "north": 39, "east": 132, "limit": 2000}).get('areas', [])]
    if not points:
        fail('the sample daemon serves no areas')
    pick = random.Random(1)
    until = time.time() + seconds if seconds else None
    for i in range(10 ** 9 if until else rounds):
        if until and time.time() > until:
            break
        lat, lon = pick.choice(points)
        box = {"south": lat - 0.002, "west": lon - 0.002, "north": lat + 0.002, "east": lon + 0.002}
        ask({"op": "near", "lat": lat, "lon": lon, "k": 10})
        ask({"op": "near", "lat": lat, "lon": lon, "k": 5, "kind": "smoking"})
        ask({"op": "radius", "lat": lat, "lon": lon, "meters": 300, "limit": 50})
        ask({"op": "bbox", **box, "limit": 50})
        ask({"op": "check", "lat": lat, "lon": lon})
        ask({"op": "where", "lat": lat, "lon": lon})
        ask({"op": "along", "path": [[lat, lon], [lat + 0.003, lon + 0.003]], "meters": 30})
        ask({"op": "clusters", "south": lat - 0.05, "west": lon - 0.05, "north": lat + 0.05, "east": lon + 0.05, "zoom": 13})
        ask({"op": "search", "q": "용산"})
        ask({"op": "search", "q": "역", "lat": lat, "lon": lon})
        for area in ask({"op": "near", "lat": lat, "lon": lon, "k": 3}).get('areas', []):
            ask({"op": "get", "id": area['id']})
        query = f'lat={lat}&lon={lon}'
        for path in [f'/v1/near?{query}&k=10', f'/v1/near?{query}&k=10&format=geojson', f'/v1/radius?{query}&meters=300',
                     f'/v1/bbox?south={box["south"]}&west={box["west"]}&north={box["north"]}&east={box["east"]}',
                     f'/v1/check?{query}', f'/v1/where?{query}', f'/v1/tiles/15/{tile(lat, lon)}.mvt',
                     f'/v1/clusters?south={lat - 0.05}&west={lon - 0.05}&north={lat + 0.05}&east={lon + 0.05}&zoom=13']:
            get(path)
        if i % 10 == 0:
            for question in [{"op": "stats"}, {"op": "sources"}, {"op": "health"}, {"op": "changes", "since": 0}]:
                ask(question)
            for path in ['/map', '/healthz', '/metrics', '/v1/sources', '/v1/stats', '/ogc', '/ogc/collections',
                         '/v1/search?q=%EC%97%AD', '/v1/crowd', '/v1/changes?since=0', '/v1/regions?level=district']:
                get(path)
    s.close()


def serving(work):
    """The daemon's functions while it answers, on the bundled samples."""
    config = json.load(open('config/areasd.json'))
    os.makedirs(work + '/config')
    os.symlink(os.path.abspath('samples'), work + '/samples')
    config['snapshot'] = work + '/areas.snapshot'
    with socket.socket() as probe:  # a free port for the daemon's HTTP
        probe.bind(('127.0.0.1', 0))
        http = f'127.0.0.1:{probe.getsockname()[1]}'
    config['http'] = {'listen': http}
    json.dump(config, open(work + '/config/areasd.json', 'w'), ensure_ascii=False)
    sock = work + '/areasd.sock'
    daemon = subprocess.Popen([RELEASE + '/areasd', '--config', work + '/config/areasd.json', '--socket', sock, '--log-level', 'error'])
    try:
        if not wait_for(sock, time.time() + 120):
            fail('the sample daemon did not answer within 120 s')
        ask_everything(sock, http, 3)  # what only the first questions run stays out
        data = work + '/serving.data'
        perf = subprocess.Popen(['perf', 'record', '-q', '-F', '20000', '-p', str(daemon.pid), '-o', data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        askers = [subprocess.Popen([sys.executable, __file__, '--ask', sock, http]) for _ in range(4)]
        for asker in askers:
            asker.wait(timeout=600)
        perf.send_signal(signal.SIGINT)
        perf.wait(timeout=60)
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
    answering = Counter({symbol: n for (_, symbol), n in samples(data).items()})
    print(f'serving: {sum(answering.values())} samples in {len(answering)} functions')
    return answering


def refreshing(work, runs=3):
    """The daemon's and its fetch worker's functions through the memory benchmark's refreshes.
    The worker mostly waits on the network, and much of what it runs runs once (setting up
    curl and TLS): several runs, sampled often, find more of it."""
    daemon, worker = Counter(), Counter()
    for run in range(runs):
        found = refreshing_once(f'{work}/bench-{run}.data')
        daemon.update(found[0])
        worker.update(found[1])
    print(f'refreshes: {len(daemon)} functions in the daemon, {len(worker)} in the fetch worker')
    return daemon, worker


def refreshing_once(data):
    subprocess.run(['perf', 'record', '-q', '-F', '40000', '-o', data, '--', RELEASE + '/areas-bench', 'memory',
                    '--points', '100000', '--areasd', RELEASE + '/areasd'], check=True, stdout=subprocess.DEVNULL)
    threads = subprocess.run(['perf', 'script', '-i', data, '-F', 'comm,pid'], capture_output=True, text=True).stdout
    daemons, workers = set(), set()
    for line in threads.splitlines():
        parts = line.split()
        if len(parts) == 2:
            # The daemon's main thread is named for its program; a worker, started from
            # /proc/self/exe, for that.
            (daemons if parts[0] == 'areasd' else workers if parts[0] == 'exe' else set()).add(parts[1])
    if not daemons or not workers:
        fail('perf saw no daemon or no fetch worker in the memory benchmark')
    by_process = samples(data, daemons | workers)
    daemon, worker = Counter(), Counter()
    for (pid, symbol), n in by_process.items():
        (daemon if pid in daemons else worker)[symbol] += n
    return daemon, worker


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--ask':
        return ask_everything(sys.argv[2], sys.argv[3], 0, seconds=40)
    if not shutil.which('perf'):
        fail('needs perf: apt-get install linux-perf')
    for program in ('areasd', 'areas-bench'):
        if not os.access(f'{RELEASE}/{program}', os.X_OK):
            fail(f'run from the package folder after `swift build -c release` ({RELEASE}/{program} not found)')
    with tempfile.TemporaryDirectory(prefix='areas-hot-code-') as work:
        answering = serving(work)
        daemon, worker = refreshing(work)
    order, seen = [], set()
    for group in (answering, worker, daemon):
        for symbol, _ in sorted(group.items(), key=lambda item: (-item[1], item[0])):
            if symbol not in seen:
                seen.add(symbol)
                order.append('.text.' + symbol)
    with open(os.path.join(HERE, 'hot-code.order'), 'w') as out:
        out.write('\n'.join(order) + '\n')
    # The build does not see the file as an input: without its areasd, the next build links again.
    os.remove(f'{RELEASE}/areasd')
    print(f'hot-code.order: {len(order)} functions ({len(answering)} serving, then the fetch worker, then a refresh); '
          '`swift build -c release` links areasd with it')


if __name__ == '__main__':
    main()
