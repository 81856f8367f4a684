// Under darts, the policy forgets the handles of a matrix that goes while tasks still read
// it, on a simulated core and GPU.
//
// The darts policy keeps the handles of the tasks it sees, and a matrix's storage tells it
// to forget them when it goes (TileStorage::release). Waiting only for the kernels writing
// its tiles is not enough: a task that only reads one, pushed after, brings the handle
// back, and the policy would keep it after StarPU freed it (LUF would read it when choosing
// a victim). So the storage waits for every task on its tiles.
//
// Run through scripts/sim-testing.sh --program --gpus 1 (testing_drivers/CMakeLists.txt).
#include <starpu.h>

#include <grain/grain.hpp>

#include "sim_check.hpp"
#include "src/sched/darts_policy.hpp"

using grain::test::check;
using grain::test::checks_failed;

int main(int, char**) {
    grain::Runtime runtime(grain::test::one_core_one_gpu("darts"));
    if (!grain::test::has_its_gpu(runtime)) return 1;
    runtime.set_split("all");  // tasks on sub-tiles: their handles go with the matrix too
    const std::vector<int> ladder = {1024, 512};
    {
        grain::Matrix<double> C(2048, 2048, ladder);
        grain::Request request;
        {
            grain::Matrix<double> A(2048, 2048, ladder);
            request = grain::gemm_async(grain::Op::NoTrans, grain::Op::Trans, -1.0, A, A, 1.0, C);
            check(grain::detail::sched::known_handles() > 0, "darts knows the handles of the tasks it was given");
        }  // A goes while the gemm's tasks read it
        check(request.wait() == 0, "the product ends");
    }
    check(grain::detail::sched::known_handles() == 0, "darts knows no handle once the matrices are gone");
    return checks_failed() ? 1 : 0;
}
