// The placements of placement.hpp: XKaapi's HEFT and DADA, PaRSEC's owner-compute.
#include "placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace grain::detail::sched {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// A parameter in [low, high] (or "inf" where infinite is allowed), else throws.
double parse_number(const std::string& name, const std::string& text, double low, double high, bool inf) {
    if (inf && text == "inf") return infinity;
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !(v >= low && v <= high))
        throw std::invalid_argument(name + ": '" + text + "' must be a number from " + std::to_string(low) + " to " +
                                    std::to_string(high) + (inf ? " or inf" : ""));
    return v;
}

}  // namespace

std::vector<std::string> placement_names() {
    return {"xkaapi-heft", "dada", "dada-cp", "owner-random", "owner-load", "owner-cyclic"};
}

std::optional<PlacementSpec> parse_placement(const std::string& name) {
    const size_t colon = name.find(':');
    const std::string base = name.substr(0, colon);
    const std::optional<std::string> param =
        colon == std::string::npos ? std::nullopt : std::optional<std::string>(name.substr(colon + 1));
    PlacementSpec s;
    if (base == "xkaapi-heft" || base == "owner-random") {
        if (param) throw std::invalid_argument(base + " takes no parameter");
        s.kind = base == "xkaapi-heft" ? PlacementKind::Heft : PlacementKind::OwnerRandom;
    } else if (base == "dada" || base == "dada-cp") {
        s.kind = PlacementKind::Dada;
        s.communication = base == "dada-cp";
        if (param) s.alpha = parse_number(base + " ALPHA", *param, 0, 1, false);
    } else if (base == "owner-load") {
        s.kind = PlacementKind::OwnerLoad;
        if (param) s.skew = parse_number("owner-load SKEW", *param, 0, 1e6, true);
    } else if (base == "owner-cyclic") {
        s.kind = PlacementKind::OwnerCyclic;
        if (param) {
            const size_t x = param->find('x');
            const auto dim = [&](const std::string& t) {
                return int(parse_number("owner-cyclic GPxGQ", t, 1, 64, false));
            };
            if (x == std::string::npos) throw std::invalid_argument("owner-cyclic: '" + *param + "' is not GPxGQ");
            s.grid_p = dim(param->substr(0, x));
            s.grid_q = dim(param->substr(x + 1));
            if (double(s.grid_p) != std::stod(param->substr(0, x)) || double(s.grid_q) != std::stod(param->substr(x + 1)))
                throw std::invalid_argument("owner-cyclic: '" + *param + "' needs whole numbers");
        }
    } else {
        return std::nullopt;
    }
    return s;
}

Placement::Placement(PlacementSpec spec, PlacementMachine machine, uint64_t seed)
    : spec_(spec), machine_(machine), load_(size_t(machine.gpus + machine.cores), 0.0),
      users_(size_t(machine.gpus)), random_(seed) {
    if (machine.gpus + machine.cores <= 0) throw std::invalid_argument("Placement: no workers");
    if (spec.kind != PlacementKind::OwnerCyclic || machine.gpus == 0) return;
    if (spec.grid_p > 0) {
        if (spec.grid_p * spec.grid_q != machine.gpus)
            throw std::invalid_argument("owner-cyclic: a " + std::to_string(spec.grid_p) + "x" +
                                        std::to_string(spec.grid_q) + " grid for " + std::to_string(machine.gpus) +
                                        " GPUs");
        grid_p_ = spec.grid_p, grid_q_ = spec.grid_q;
    } else {
        // The squarest grid, with no more rows than columns.
        for (int p = 1; p * p <= machine.gpus; ++p)
            if (machine.gpus % p == 0) grid_p_ = p;
        grid_q_ = machine.gpus / grid_p_;
    }
}

bool Placement::coming(DataId d, int gpu) const {
    const std::vector<int>& u = users_[size_t(gpu)];
    return size_t(d) < u.size() && u[size_t(d)] > 0;
}

int Placement::owner(DataId d) const { return size_t(d) < owner_.size() ? owner_[size_t(d)] : -1; }

double Placement::transfer_us(const PlacedTask& t, int w) const {
    double bytes = 0;
    for (const Access& a : t.data) {
        if (!a.reads) continue;
        const bool there = is_gpu(w) ? (a.valid >> (1 + w)) & 1u || coming(a.data, w) : a.valid & 1u;
        if (!there) bytes += a.bytes;
    }
    return bytes / machine_.bytes_per_us;
}

void Placement::assign(const PlacedTask& t, int w, double us) {
    load_[size_t(w)] += us;
    Placed p{w, us, {}};
    if (is_gpu(w)) {
        std::vector<int>& u = users_[size_t(w)];
        for (const Access& a : t.data) {
            if (size_t(a.data) >= u.size()) u.resize(size_t(a.data) + 1, 0);
            ++u[size_t(a.data)];
            p.data.push_back(a.data);
        }
    }
    placed_[t.id] = std::move(p);
}

void Placement::finished(uint64_t id) {
    const auto it = placed_.find(id);
    if (it == placed_.end()) return;
    const Placed& p = it->second;
    double& l = load_[size_t(p.worker)];
    l = std::max(0.0, l - p.us);
    for (DataId d : p.data) --users_[size_t(p.worker)][size_t(d)];
    placed_.erase(it);
}

void Placement::forget(DataId d) {
    if (size_t(d) < owner_.size()) owner_[size_t(d)] = -1;
}

// Among workers [first, last), the one that would finish t first (its transfers counted or
// not); the first such.
int Placement::least_loaded(int first, int last, const PlacedTask& t, bool transfers) const {
    int best = -1;
    double best_end = infinity;
    for (int w = first; w < last; ++w) {
        const double end = load_[size_t(w)] + duration(t, w) + (transfers ? transfer_us(t, w) : 0);
        if (end < best_end) best = w, best_end = end;
    }
    return best;
}

std::vector<int> Placement::place(const std::vector<PlacedTask>& batch) {
    for (const PlacedTask& t : batch)
        if (!(t.cpu_us < infinity && machine_.cores > 0) && !(t.gpu_us < infinity && machine_.gpus > 0))
            throw std::invalid_argument("Placement: a task no worker can run");
    switch (spec_.kind) {
    case PlacementKind::Heft: return heft(batch);
    case PlacementKind::Dada: return dada(batch);
    default: break;
    }
    std::vector<int> workers;
    for (const PlacedTask& t : batch) workers.push_back(owner_compute(t));
    return workers;
}

namespace {

// A task's GPU speed-up: infinite with no CPU kernel, 0 with no GPU kernel.
double speedup(const PlacedTask& t) {
    if (!(t.gpu_us < infinity)) return 0;
    if (!(t.cpu_us < infinity)) return infinity;
    return t.cpu_us / std::max(t.gpu_us, 1e-9);
}

// The batch's indices by decreasing speed-up, then priority, then batch order.
std::vector<size_t> by_speedup(const std::vector<PlacedTask>& batch) {
    std::vector<size_t> order(batch.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const double sa = speedup(batch[a]), sb = speedup(batch[b]);
        if (sa != sb) return sa > sb;
        return batch[a].priority > batch[b].priority;
    });
    return order;
}

}  // namespace

// Each task, by decreasing speed-up, on the worker that ends it first with its transfers.
std::vector<int> Placement::heft(const std::vector<PlacedTask>& batch) {
    std::vector<int> workers(batch.size(), -1);
    for (size_t i : by_speedup(batch)) {
        const PlacedTask& t = batch[i];
        const int w = least_loaded(0, this->workers(), t, true);
        assign(t, w, duration(t, w) + transfer_us(t, w));
        workers[i] = w;
    }
    return workers;
}

// The GPU holding the most bytes of what t writes (or reads), valid there or on its way;
// -1 if no GPU holds any.
int Placement::affine_gpu(const PlacedTask& t, bool writes) const {
    int best = -1;
    double best_bytes = 0;
    for (int g = 0; g < machine_.gpus; ++g) {
        double bytes = 0;
        for (const Access& a : t.data)
            if ((writes ? a.writes : a.reads) && ((a.valid >> (1 + g)) & 1u || coming(a.data, g))) bytes += a.bytes;
        if (bytes > best_bytes) best = g, best_bytes = bytes;
    }
    return best;
}

std::vector<int> Placement::dada_guess(const std::vector<PlacedTask>& batch, const std::vector<size_t>& order,
                                       const std::vector<size_t>& by_gain, double lambda) const {
    const int gpus = machine_.gpus, cores = machine_.cores;
    std::vector<double> load = load_;
    std::vector<int> workers(batch.size(), -1);
    const auto time = [&](const PlacedTask& t, int w) {
        return duration(t, w) + (spec_.communication ? transfer_us(t, w) : 0);
    };
    // Affinity: a task goes to the GPU that holds what it writes while the work this
    // phase gives that GPU, after its queue, lasts at most alpha lambda; the area test
    // below then balances the rest. Host memory holds every tile at first: counting it
    // would keep the first tasks on the cores.
    if (spec_.alpha > 0) {
        std::vector<double> affine(size_t(gpus), 0.0);
        for (size_t i : order) {
            const PlacedTask& t = batch[i];
            const int g = t.gpu_us < infinity ? affine_gpu(t, true) : -1;
            if (g < 0) continue;
            const double us = time(t, g);
            if (affine[size_t(g)] + us <= spec_.alpha * lambda) {
                affine[size_t(g)] += us;
                load[size_t(g)] += us;
                workers[i] = g;
            }
        }
    }
    // The dual approximation: a task too long for lambda on one kind goes to the other;
    // the others by decreasing speed-up to the GPUs while their area fits gpus lambda.
    double gpu_area = 0, cpu_area = 0;
    for (int w = 0; w < gpus + cores; ++w) (is_gpu(w) ? gpu_area : cpu_area) += load[size_t(w)];
    std::vector<size_t> on_gpus, on_cores;
    const auto gpu_time = [&](const PlacedTask& t) {
        double best = infinity;
        for (int g = 0; g < gpus; ++g) best = std::min(best, time(t, g));
        return best;
    };
    // First the tasks that fit only one kind, then the others by decreasing speed-up.
    std::vector<char> decided(batch.size(), 0);
    for (const bool forced : {true, false})
        for (size_t i : forced ? order : by_gain) {
            if (workers[i] >= 0 || decided[i]) continue;
            const PlacedTask& t = batch[i];
            const double pg = gpu_time(t), pc = cores > 0 ? time(t, gpus) : infinity;
            if (forced && pc <= lambda && pg <= lambda) continue;
            const bool gpu = pc > lambda || (pg <= lambda && gpu_area + pg <= gpus * lambda);
            if (gpu && !(pg < infinity)) return {};
            (gpu ? gpu_area : cpu_area) += gpu ? pg : pc;
            (gpu ? on_gpus : on_cores).push_back(i);
            decided[i] = 1;
        }
    if (gpu_area > gpus * lambda || cpu_area > cores * lambda) return {};
    // Each set by earliest finish, the longest tasks first.
    for (bool gpu : {true, false}) {
        std::vector<size_t>& set = gpu ? on_gpus : on_cores;
        std::stable_sort(set.begin(), set.end(), [&](size_t a, size_t b) {
            return duration(batch[a], gpu ? 0 : gpus) > duration(batch[b], gpu ? 0 : gpus);
        });
        for (size_t i : set) {
            int best = -1;
            for (int w = gpu ? 0 : gpus; w < (gpu ? gpus : gpus + cores); ++w)
                if (best < 0 || load[size_t(w)] + time(batch[i], w) < load[size_t(best)] + time(batch[i], best))
                    best = w;
            load[size_t(best)] += time(batch[i], best);
            workers[i] = best;
        }
    }
    return workers;
}

// The smallest guess the dual approximation accepts, by bisection to 1 %; its schedule.
std::vector<int> Placement::dada(const std::vector<PlacedTask>& batch) {
    if (batch.empty()) return {};
    std::vector<size_t> order(batch.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return batch[a].priority > batch[b].priority; });
    double longest = 0, total = 0;
    for (const PlacedTask& t : batch) {
        longest = std::max(longest, std::min(t.gpu_us, machine_.cores > 0 ? t.cpu_us : infinity));
        for (double us : {t.gpu_us, t.cpu_us}) total += us < infinity ? us : 0;
        for (const Access& a : t.data) total += a.bytes / machine_.bytes_per_us;
    }
    double busiest = 0;
    for (double l : load_) busiest = std::max(busiest, l);
    // Everything on one worker after the busiest one's queue, on either kind, with every
    // input moved: a guess the test accepts.
    double low = longest, high = busiest + total + longest;
    const std::vector<size_t> by_gain = by_speedup(batch);
    std::vector<int> workers = dada_guess(batch, order, by_gain, high);
    for (int step = 0; step < 64 && high > 1.01 * low; ++step) {
        const double mid = 0.5 * (low + high);
        std::vector<int> w = dada_guess(batch, order, by_gain, mid);
        if (w.empty()) low = mid;
        else high = mid, workers = std::move(w);
    }
    if (workers.empty()) return heft(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
        const int w = workers[size_t(i)];
        assign(batch[i], w, duration(batch[i], w) + transfer_us(batch[i], w));
    }
    return workers;
}

// The GPU that owns what t writes; a datum without one gets one by the policy's rule.
int Placement::owner_compute(const PlacedTask& t) {
    if (!(t.gpu_us < infinity) || machine_.gpus == 0) {
        const int w = least_loaded(machine_.gpus, workers(), t, false);
        assign(t, w, t.cpu_us);
        return w;
    }
    const Access* out = nullptr;
    for (const Access& a : t.data)
        if (a.writes) {
            out = &a;
            break;
        }
    int g = -1;
    if (spec_.kind == PlacementKind::OwnerCyclic) {
        // The user's map: tile (m, n) on GPU (m mod GP) GQ + n mod GQ. A task that writes
        // nothing goes where the map puts its first input, so that such tasks spread too.
        const Access* key = out ? out : t.data.empty() ? nullptr : &t.data.front();
        if (key && key->row >= 0 && key->col >= 0) g = (key->row % grid_p_) * grid_q_ + key->col % grid_q_;
        else g = key ? int(key->data % machine_.gpus) : 0;
    } else if (out && owner(out->data) >= 0 &&
               ((out->valid >> (1 + owner(out->data))) & 1u || coming(out->data, owner(out->data)))) {
        g = owner(out->data);  // the owner holds it still, or will
    } else if (spec_.kind == PlacementKind::OwnerRandom) {
        g = int(std::uniform_int_distribution<int>(0, machine_.gpus - 1)(random_));
    } else {
        // Where its inputs are while that GPU's finish is within 1 + skew of the least
        // loaded GPU's, else the least loaded.
        const int best = least_loaded(0, machine_.gpus, t, false);
        const int reuse = affine_gpu(t, false);
        const auto end = [&](int k) { return load_[size_t(k)] + t.gpu_us; };
        g = reuse >= 0 && end(reuse) <= (1 + spec_.skew) * end(best) ? reuse : best;
    }
    for (const Access& a : t.data)
        if (a.writes) {
            if (size_t(a.data) >= owner_.size()) owner_.resize(size_t(a.data) + 1, -1);
            owner_[size_t(a.data)] = g;
        }
    assign(t, g, t.gpu_us);
    return g;
}

}  // namespace grain::detail::sched
