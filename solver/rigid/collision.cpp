#include "rigid/collision.h"

#include <Eigen/SparseCore>

#include <cmath>
#include <stdexcept>
#include <string>

#include "rigid/contact_rows.h"
#include "rigid/gauss_seidel.h"

namespace sphero {
namespace {

using namespace contact_rows;
using Triplets = std::vector<Eigen::Triplet<double>>;

void add_outer(Triplets& H, const Relative& r, double weight) {
  for (const Row& a : {r.first, r.second}) {
    if (a.body < 0) continue;
    for (const Row& b : {r.first, r.second}) {
      if (b.body < 0) continue;
      const double ac[3] = {a.x, a.y, a.w}, bc[3] = {b.x, b.y, b.w};
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q) H.emplace_back(3 * a.body + p, 3 * b.body + q, weight * ac[p] * bc[q]);
    }
  }
}

void add_row(Eigen::VectorXd& v, const Relative& r, double weight) {
  for (const Row& a : {r.first, r.second}) {
    if (a.body < 0) continue;
    v[3 * a.body] += weight * a.x;
    v[3 * a.body + 1] += weight * a.y;
    v[3 * a.body + 2] += weight * a.w;
  }
}

void check(const std::vector<RigidBodyState>& bodies, const CollisionContact& c, std::size_t k,
           const CollisionSettings& settings) {
  const auto n = static_cast<int>(bodies.size());
  if (c.body < 0 || c.body >= n || c.other >= n || c.other == c.body || std::abs(norm2(c.normal) - 1.0) > 1e-9 ||
      !(c.normal_dissipation >= 0.0) || !(c.tangential_dissipation >= 0.0) || !(c.friction >= 0.0) ||
      !std::isfinite(c.friction))
    throw std::invalid_argument("collision contact " + std::to_string(k) +
                                ": bodies out of range or equal, a normal that is not a unit vector, or a negative "
                                "dissipation or friction");
  if (c.friction > 0.0 && c.tangential_dissipation > 0.0)
    throw std::invalid_argument("collision contact " + std::to_string(k) +
                                ": Coulomb friction and a tangential dissipation together");
  if (c.friction > 0.0 && settings.solver != RigidSolver::gauss_seidel)
    throw std::invalid_argument("collision contact " + std::to_string(k) +
                                ": Coulomb friction needs the Gauss-Seidel solver");
}

void check(const std::vector<RigidBodyState>& bodies, const std::vector<CollisionContact>& contacts,
           const CollisionSettings& settings) {
  for (const RigidBodyState& s : bodies)
    if (!(s.mass > 0.0 && s.inertia > 0.0))
      throw std::invalid_argument("collision: a body without positive mass and inertia");
  for (std::size_t k = 0; k < contacts.size(); ++k) check(bodies, contacts[k], k, settings);
}

// The A-CD² program (collision.h) by the interior point of convex_qp.h.
CollisionResult resolve_by_interior_point(const std::vector<RigidBodyState>& bodies,
                                          const std::vector<CollisionContact>& contacts, const QpSettings& settings) {
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(bodies.size()), m = static_cast<Eigen::Index>(contacts.size());
  Triplets H, G;
  ConvexQp qp;
  qp.c = Eigen::VectorXd::Zero(n);
  qp.h = Eigen::VectorXd::Zero(m);
  qp.compliance = Eigen::VectorXd::Zero(m);
  Eigen::VectorXd before(n);
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const RigidBodyState& s = bodies[b];
    const auto at = static_cast<Eigen::Index>(3 * b);
    const double mass[3] = {s.mass, s.mass, s.inertia};
    before.segment<3>(at) << s.velocity.x, s.velocity.y, s.angular_velocity;
    const double impulse[3] = {s.impulse.x, s.impulse.y, s.torque_impulse};
    for (int p = 0; p < 3; ++p) {
      H.emplace_back(at + p, at + p, 2.0 * mass[p]);
      qp.c[at + p] = 2.0 * mass[p] * before[at + p] + impulse[p];
    }
  }
  std::vector<Relative> normal(contacts.size()), tangential(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const CollisionContact& c = contacts[k];
    normal[k] = relative(bodies, c, c.normal);
    tangential[k] = relative(bodies, c, perp(c.normal));
    // ½ ξ (d(x) − 0)² with d(x) = row·x − wall: ξ rowᵀrow in H, ξ wall row in c.
    const double xi_n = c.elastic ? 0.0 : c.normal_dissipation;
    add_outer(H, normal[k], xi_n);
    add_outer(H, tangential[k], c.tangential_dissipation);
    add_row(qp.c, normal[k], xi_n * normal[k].wall);
    add_row(qp.c, tangential[k], c.tangential_dissipation * tangential[k].wall);
    // d(x) ≥ ½ d(U⁻) + bias (elastic: ≥ bias):  −row·x ≤ −½ d(U⁻) − bias − wall.
    for (const Row& r : {normal[k].first, normal[k].second}) {
      if (r.body < 0) continue;
      G.emplace_back(static_cast<Eigen::Index>(k), 3 * r.body, -r.x);
      G.emplace_back(static_cast<Eigen::Index>(k), 3 * r.body + 1, -r.y);
      G.emplace_back(static_cast<Eigen::Index>(k), 3 * r.body + 2, -r.w);
    }
    qp.h[static_cast<Eigen::Index>(k)] = (c.elastic ? 0.0 : -0.5 * normal[k].at(bodies)) - c.bias - normal[k].wall;
    qp.compliance[static_cast<Eigen::Index>(k)] = contact_compliance(bodies, normal[k]);
  }
  qp.H.resize(n, n);
  qp.H.setFromTriplets(H.begin(), H.end());
  qp.G.resize(m, n);
  qp.G.setFromTriplets(G.begin(), G.end());

  CollisionResult out;
  out.program = solve_convex_qp(qp, settings);
  const Eigen::VectorXd& x = out.program.x;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const auto at = static_cast<Eigen::Index>(3 * b);
    out.velocity.push_back({2.0 * x[at] - before[at], 2.0 * x[at + 1] - before[at + 1]});
    out.angular_velocity.push_back(2.0 * x[at + 2] - before[at + 2]);
  }
  const double velocity_scale = 1.0 + qp.h.lpNorm<Eigen::Infinity>();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const auto row = static_cast<Eigen::Index>(k);
    if (qp.compliance[row] * out.program.z[row] > kJammedYield * velocity_scale) out.jammed.push_back(k);
    const double d = normal[k].at(bodies, &x), t = tangential[k].at(bodies, &x);
    const double xi_n = contacts[k].elastic ? 0.0 : contacts[k].normal_dissipation;
    const double p_n = out.program.z[static_cast<Eigen::Index>(k)] - xi_n * d;
    const double p_t = -contacts[k].tangential_dissipation * t;
    out.normal_percussion.push_back(p_n);
    out.tangential_percussion.push_back(p_t);
    out.dissipated -= p_n * d + p_t * t;  // the internal percussions' work at the mean velocities
    out.wall_work += p_n * normal[k].wall + p_t * tangential[k].wall;
  }
  return out;
}

}  // namespace

CollisionResult resolve_collisions(const std::vector<RigidBodyState>& bodies,
                                   const std::vector<CollisionContact>& contacts, const CollisionSettings& settings) {
  check(bodies, contacts, settings);
  if (settings.solver == RigidSolver::gauss_seidel) return resolve_by_gauss_seidel(bodies, contacts, settings);
  return resolve_by_interior_point(bodies, contacts, settings.program);
}

}  // namespace sphero
