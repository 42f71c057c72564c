"""Reference only (tests): the hand-written maximum-weight matching the ``swiss.v1`` draw used.

Edmonds' blossom algorithm for a maximum-weight matching in the O(n³) form of Galil (1986), with
an option to maximise cardinality first, in plain Python (integer arithmetic only, so Python's
big integers encode lexicographic objectives exactly). It left production with ``swiss.v2`` (the
Swiss draw now runs on rustworkx); it is kept here, unchanged, because the frozen ``swiss.v1``
engine (:mod:`tests.tournament.draw.reference_swiss_v1`) needs it to reproduce old draws and to
serve as the exact reference the new engine is compared with.

Vertices are ``0 … n-1``; the result ``mate[v]`` is ``v``'s partner or ``-1``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["max_weight_matching"]


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]], *, max_cardinality: bool = False) -> list[int]:
    """Return ``mate`` for a maximum-weight matching of the graph ``(range(n), edges)``.

    ``edges`` are ``(i, j, weight)`` with ``i != j`` and integer weights. With
    ``max_cardinality=True`` the matching has maximum cardinality first and maximum weight among
    those. Self-loops are rejected; parallel edges are allowed (the better one wins).
    """
    if not edges:
        return [-1] * n
    for i, j, _w in edges:
        if i == j or not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"bad edge {i}-{j} for {n} vertices")
    return _Blossom(n, edges, max_cardinality).solve()


class _Blossom:
    """State of the primal-dual blossom algorithm (vertices 0…n-1, blossoms n…2n-1).

    Edge ``k`` has endpoints ``2k`` and ``2k+1``; ``endpoint[p]`` is the vertex at endpoint ``p``,
    ``p ^ 1`` the other end. Labels: 0 free, 1 = S (outer), 2 = T (inner); 5 marks a breadcrumb
    while looking for a common base.
    """

    def __init__(self, n: int, edges: Sequence[tuple[int, int, int]], max_cardinality: bool) -> None:
        self.n = n
        self.edges = list(edges)
        self.max_cardinality = max_cardinality
        nedge = len(self.edges)
        max_weight = max(0, *(w for _i, _j, w in self.edges))
        self.endpoint = [self.edges[p // 2][p % 2] for p in range(2 * nedge)]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _w) in enumerate(self.edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.blossomparent = [-1] * (2 * n)
        self.blossomchilds: list[list[int] | None] = [None] * (2 * n)
        self.blossombase = list(range(n)) + [-1] * n
        self.blossomendps: list[list[int] | None] = [None] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * n)
        self.unusedblossoms = list(range(n, 2 * n))
        self.dualvar = [max_weight] * n + [0] * n
        self.allowedge = [False] * nedge
        self.queue: list[int] = []

    # -- helpers ---------------------------------------------------------------------------
    def slack(self, k: int) -> int:
        i, j, w = self.edges[k]
        return self.dualvar[i] + self.dualvar[j] - 2 * w

    def leaves(self, b: int) -> Iterator[int]:
        if b < self.n:
            yield b
            return
        childs = self.blossomchilds[b]
        assert childs is not None
        for t in childs:
            if t < self.n:
                yield t
            else:
                yield from self.leaves(t)

    def assign_label(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        elif t == 2:
            base = self.blossombase[b]
            self.assign_label(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from v and w to find a new blossom's base, or -1 for an augmenting path."""
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.blossombase[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w, _wt = self.edges[k]
        inblossom, endpoint, labelend = self.inblossom, self.endpoint, self.labelend
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = self.unusedblossoms.pop()
        self.blossombase[b] = base
        self.blossomparent[b] = -1
        self.blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        self.blossomchilds[b] = path
        self.blossomendps[b] = endps
        self.label[b] = 1
        labelend[b] = labelend[bb]
        self.dualvar[b] = 0
        for leaf in self.leaves(b):
            if self.label[inblossom[leaf]] == 2:
                self.queue.append(leaf)
            inblossom[leaf] = b
        bestedgeto = [-1] * (2 * self.n)
        for sub in path:
            nblists: list[list[int]]
            sub_best = self.blossombestedges[sub]
            if sub_best is None:
                nblists = [[p // 2 for p in self.neighbend[leaf]] for leaf in self.leaves(sub)]
            else:
                nblists = [sub_best]
            for nblist in nblists:
                for kk in nblist:
                    i, j, _w = self.edges[kk]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if (
                        bj != b
                        and self.label[bj] == 1
                        and (bestedgeto[bj] == -1 or self.slack(kk) < self.slack(bestedgeto[bj]))
                    ):
                        bestedgeto[bj] = kk
            self.blossombestedges[sub] = None
            self.bestedge[sub] = -1
        best = [kk for kk in bestedgeto if kk != -1]
        self.blossombestedges[b] = best
        self.bestedge[b] = -1
        for kk in best:
            if self.bestedge[b] == -1 or self.slack(kk) < self.slack(self.bestedge[b]):
                self.bestedge[b] = kk

    def expand_blossom(self, b: int, endstage: bool) -> None:
        childs = self.blossomchilds[b]
        endps = self.blossomendps[b]
        assert childs is not None and endps is not None
        label, labelend, endpoint = self.label, self.labelend, self.endpoint
        for s in childs:
            self.blossomparent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for leaf in self.leaves(s):
                    self.inblossom[leaf] = s
        if not endstage and label[b] == 2:
            entrychild = self.inblossom[endpoint[labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(endpoint[p ^ 1], 2, p)
                self.allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowedge[p // 2] = True
                j += jstep
            bv = childs[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                reached = -1
                for leaf in self.leaves(bv):
                    if label[leaf] != 0:
                        reached = leaf
                        break
                if reached != -1:
                    label[reached] = 0
                    label[endpoint[self.mate[self.blossombase[bv]]]] = 0
                    self.assign_label(reached, 2, labelend[reached])
                j += jstep
        label[b] = labelend[b] = -1
        self.blossomchilds[b] = self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.unusedblossoms.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        t = v
        while self.blossomparent[t] != b:
            t = self.blossomparent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs = self.blossomchilds[b]
        endps = self.blossomendps[b]
        assert childs is not None and endps is not None
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        endpoint, mate = self.endpoint, self.mate
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= self.n:
                self.augment_blossom(t, endpoint[p])
            j += jstep
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        self.blossomchilds[b] = childs[i:] + childs[:i]
        self.blossomendps[b] = endps[i:] + endps[:i]
        self.blossombase[b] = self.blossombase[childs[i]]

    def augment_matching(self, k: int) -> None:
        v, w, _wt = self.edges[k]
        endpoint, labelend, inblossom = self.endpoint, self.labelend, self.inblossom
        for s0, p0 in ((v, 2 * k + 1), (w, 2 * k)):
            s, p = s0, p0
            while True:
                bs = inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    # -- main loop -------------------------------------------------------------------------
    def solve(self) -> list[int]:
        n = self.n
        label, inblossom, dualvar = self.label, self.inblossom, self.dualvar
        for _stage in range(n):
            label[:] = [0] * (2 * n)
            self.bestedge[:] = [-1] * (2 * n)
            self.blossombestedges[n:] = [None] * n
            self.allowedge[:] = [False] * len(self.edges)
            self.queue[:] = []
            for v in range(n):
                if self.mate[v] == -1 and label[inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            augmented = False
            while True:
                while self.queue and not augmented:
                    v = self.queue.pop()
                    for p in self.neighbend[v]:
                        k = p // 2
                        w = self.endpoint[p]
                        if inblossom[v] == inblossom[w]:
                            continue
                        kslack = 0
                        if not self.allowedge[k]:
                            kslack = self.slack(k)
                            if kslack <= 0:
                                self.allowedge[k] = True
                        if self.allowedge[k]:
                            if label[inblossom[w]] == 0:
                                self.assign_label(w, 2, p ^ 1)
                            elif label[inblossom[w]] == 1:
                                base = self.scan_blossom(v, w)
                                if base >= 0:
                                    self.add_blossom(base, k)
                                else:
                                    self.augment_matching(k)
                                    augmented = True
                                    break
                            elif label[w] == 0:
                                label[w] = 2
                                self.labelend[w] = p ^ 1
                        elif label[inblossom[w]] == 1:
                            b = inblossom[v]
                            if self.bestedge[b] == -1 or kslack < self.slack(self.bestedge[b]):
                                self.bestedge[b] = k
                        elif label[w] == 0 and (self.bestedge[w] == -1 or kslack < self.slack(self.bestedge[w])):
                            self.bestedge[w] = k
                if augmented:
                    break
                deltatype = -1
                delta = 0
                deltaedge = -1
                deltablossom = -1
                if not self.max_cardinality:
                    deltatype = 1
                    delta = min(dualvar[:n])
                for v in range(n):
                    if label[inblossom[v]] == 0 and self.bestedge[v] != -1:
                        d = self.slack(self.bestedge[v])
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 2
                            deltaedge = self.bestedge[v]
                for b in range(2 * n):
                    if self.blossomparent[b] == -1 and label[b] == 1 and self.bestedge[b] != -1:
                        d = self.slack(self.bestedge[b]) // 2
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 3
                            deltaedge = self.bestedge[b]
                for b in range(n, 2 * n):
                    if (
                        self.blossombase[b] >= 0
                        and self.blossomparent[b] == -1
                        and label[b] == 2
                        and (deltatype == -1 or dualvar[b] < delta)
                    ):
                        delta = dualvar[b]
                        deltatype = 4
                        deltablossom = b
                if deltatype == -1:
                    deltatype = 1
                    delta = max(0, min(dualvar[:n]))
                for v in range(n):
                    lab = label[inblossom[v]]
                    if lab == 1:
                        dualvar[v] -= delta
                    elif lab == 2:
                        dualvar[v] += delta
                for b in range(n, 2 * n):
                    if self.blossombase[b] >= 0 and self.blossomparent[b] == -1:
                        if label[b] == 1:
                            dualvar[b] += delta
                        elif label[b] == 2:
                            dualvar[b] -= delta
                if deltatype == 1:
                    break
                if deltatype == 2:
                    self.allowedge[deltaedge] = True
                    i, j, _w = self.edges[deltaedge]
                    if label[inblossom[i]] == 0:
                        i, j = j, i
                    self.queue.append(i)
                elif deltatype == 3:
                    self.allowedge[deltaedge] = True
                    i, _j, _w = self.edges[deltaedge]
                    self.queue.append(i)
                else:
                    self.expand_blossom(deltablossom, False)
            if not augmented:
                break
            for b in range(n, 2 * n):
                if self.blossomparent[b] == -1 and self.blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                    self.expand_blossom(b, True)
        return [self.endpoint[m] if m >= 0 else -1 for m in self.mate]
