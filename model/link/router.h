// The golden NeuronLink router's routing function (docs/link.md "Routing"): dimension-order
// routing on a ring, 2D or 3D torus, minimal direction per dimension (a tie goes - from an odd
// coordinate, + from an even one), with a dateline virtual
// channel per ring so the torus cannot deadlock; and the channel-dependency check that proves it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "link/link_format.h"

namespace tern::link {

// A torus of dims[0] x dims[1] x dims[2] chips (1 in an unused dimension; a ring is {n, 1, 1}).
struct Torus {
  std::array<uint32_t, 3> dims{1, 1, 1};
  void check() const;  // throws tern::Error: a dimension of 0 or beyond 2^CoordBits
  uint32_t chips() const { return dims[0] * dims[1] * dims[2]; }
  std::array<uint32_t, 3> coords(uint32_t chip) const;
  uint32_t chip(const std::array<uint32_t, 3>& c) const;
  std::string name() const;
};

// Ports of a router: 0 local, then 1 + 2 * d + 0 for +d and 1 + 2 * d + 1 for -d.
constexpr int kLocalPort = 0;
constexpr int kRouterPorts = 7;
inline int port_of(int dim, bool minus) { return 1 + 2 * dim + (minus ? 1 : 0); }

struct Hop {
  int port = kLocalPort;  // output port
  uint32_t vc = 0;        // VC on the output link (message class kept, dateline bit set)
};

// Where a packet for `dst` goes next at chip `here`, having arrived on `in_port` with VC
// `in_vc` (kLocalPort when injected here). `dateline` false turns the dateline VCs off (only to
// show the dependency check catching the cycle).
Hop route(const Torus& t, const std::array<uint32_t, 3>& here, const std::array<uint32_t, 3>& dst,
          int in_port, uint32_t in_vc, bool dateline = true);

// The whole path from src to dst: one Hop per link taken plus the final local delivery.
std::vector<Hop> path(const Torus& t, uint32_t src, uint32_t dst, uint32_t msg_class, bool dateline = true);

// Builds the channel dependency graph of all src -> dst routes (a channel is a chip's output link
// and a VC) and returns an empty string when it is acyclic (Dally & Seitz: then wormhole or
// virtual cut-through routing with these channels cannot deadlock), else a cycle in words.
std::string dependency_cycle(const Torus& t, bool dateline = true);

}  // namespace tern::link
