// The golden routing function and the channel-dependency check.
#include "link/router.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "common/error.h"

namespace tern::link {

void Torus::check() const {
  for (int d = 0; d < 3; ++d)
    if (dims[d] == 0 || dims[d] > (1u << kCoordBits))
      throw Error(fmt::format("link torus: dimension {} has {} chips, must be 1..{}", d, dims[d],
                              1u << kCoordBits));
}

std::array<uint32_t, 3> Torus::coords(uint32_t c) const {
  return {c % dims[0], (c / dims[0]) % dims[1], c / (dims[0] * dims[1])};
}

uint32_t Torus::chip(const std::array<uint32_t, 3>& c) const {
  return c[0] + dims[0] * (c[1] + dims[1] * c[2]);
}

std::string Torus::name() const { return fmt::format("{}x{}x{}", dims[0], dims[1], dims[2]); }

Hop route(const Torus& t, const std::array<uint32_t, 3>& here, const std::array<uint32_t, 3>& dst,
          int in_port, uint32_t in_vc, bool dateline) {
  for (int d = 0; d < 3; ++d) {
    if (here[d] >= t.dims[d] || dst[d] >= t.dims[d])
      throw Error(fmt::format("link route: coordinates ({},{},{}) -> ({},{},{}) outside torus {}",
                              here[0], here[1], here[2], dst[0], dst[1], dst[2], t.name()));
  }
  const uint32_t cls = in_vc & 2u;
  for (int d = 0; d < 3; ++d) {
    if (here[d] == dst[d]) continue;
    const uint32_t k = t.dims[d];
    const uint32_t fwd = (dst[d] + k - here[d]) % k;  // hops in the + direction
    // The shorter way; a tie (exactly half way round an even ring) goes - from an odd
    // coordinate and + from an even one, so both directions carry half the ties. A tie only
    // happens where the packet enters the dimension, so a flow's path is fixed.
    const bool minus = fwd > k - fwd || (fwd == k - fwd && (here[d] & 1u));
    // The dateline of a ring is its wrap link: + from k-1 to 0, - from 0 to k-1.
    const bool wrap = minus ? here[d] == 0 : here[d] == k - 1;
    // The dateline bit is kept while the packet stays in this dimension; it starts at 0 in each.
    const bool same_dim = in_port != kLocalPort && (in_port - 1) / 2 == d;
    const uint32_t line = dateline ? (((same_dim ? in_vc & 1u : 0u) | (wrap ? 1u : 0u))) : 0u;
    return {port_of(d, minus), cls | line};
  }
  return {kLocalPort, in_vc};
}

std::vector<Hop> path(const Torus& t, uint32_t src, uint32_t dst, uint32_t msg_class, bool dateline) {
  t.check();
  std::vector<Hop> out;
  std::array<uint32_t, 3> here = t.coords(src);
  const std::array<uint32_t, 3> to = t.coords(dst);
  int in_port = kLocalPort;
  uint32_t vc = (msg_class & 1u) << 1;
  for (uint32_t guard = 0;; ++guard) {
    if (guard > 3 * 16) throw Error("link route: the path does not reach its destination");
    const Hop h = route(t, here, to, in_port, vc, dateline);
    out.push_back(h);
    if (h.port == kLocalPort) return out;
    const int d = (h.port - 1) / 2;
    const bool minus = (h.port - 1) % 2 == 1;
    here[d] = (here[d] + (minus ? t.dims[d] - 1 : 1)) % t.dims[d];
    in_port = port_of(d, !minus);  // arrives on the neighbour's port facing back
    vc = h.vc;
  }
}

std::string dependency_cycle(const Torus& t, bool dateline) {
  t.check();
  // A channel: (chip, output port, vc) as one integer.
  auto id = [](uint32_t chip, int port, uint32_t vc) { return (chip * kRouterPorts + port) * kNumVcs + vc; };
  std::map<uint32_t, std::set<uint32_t>> edges;
  for (uint32_t cls = 0; cls < 2; ++cls) {
    for (uint32_t s = 0; s < t.chips(); ++s) {
      for (uint32_t d = 0; d < t.chips(); ++d) {
        std::array<uint32_t, 3> here = t.coords(s);
        uint32_t prev = 0;
        bool have_prev = false;
        for (const Hop& h : path(t, s, d, cls, dateline)) {
          if (h.port == kLocalPort) break;
          const uint32_t ch = id(t.chip(here), h.port, h.vc);
          if (have_prev) edges[prev].insert(ch);
          prev = ch;
          have_prev = true;
          const int dim = (h.port - 1) / 2;
          const bool minus = (h.port - 1) % 2 == 1;
          here[dim] = (here[dim] + (minus ? t.dims[dim] - 1 : 1)) % t.dims[dim];
        }
      }
    }
  }
  // Depth-first search for a back edge.
  std::map<uint32_t, int> color;  // 0 new, 1 on the stack, 2 done
  std::vector<uint32_t> stack;
  std::string found;
  std::function<bool(uint32_t)> dfs = [&](uint32_t n) {
    color[n] = 1;
    stack.push_back(n);
    for (uint32_t m : edges[n]) {
      if (color[m] == 1) {
        found = "cycle:";
        bool on = false;
        for (uint32_t x : stack) {
          on = on || x == m;
          if (on)
            found += fmt::format(" chip {} port {} vc {} ->", x / kNumVcs / kRouterPorts,
                                 (x / kNumVcs) % kRouterPorts, x % kNumVcs);
        }
        found += " back";
        return true;
      }
      if (color[m] == 0 && dfs(m)) return true;
    }
    stack.pop_back();
    color[n] = 2;
    return false;
  };
  std::vector<uint32_t> nodes;
  for (const auto& [n, _] : edges) nodes.push_back(n);
  for (uint32_t n : nodes)
    if (color[n] == 0 && dfs(n)) return found;
  return "";
}

}  // namespace tern::link
