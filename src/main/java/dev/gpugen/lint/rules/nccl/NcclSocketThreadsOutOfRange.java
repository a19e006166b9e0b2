package dev.gpugen.lint.rules.nccl;

import dev.gpugen.compat.NcclFacts;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/** NCCL clamps socket threads to 16 and threads x sockets to 64. */
public final class NcclSocketThreadsOutOfRange extends Rule {
  public NcclSocketThreadsOutOfRange() {
    super(
        "nccl-socket-threads-out-of-range",
        Severity.ERROR,
        "NCCL_SOCKET_NTHREADS or NCCL_NSOCKS_PERTHREAD is outside what NCCL accepts",
        "NCCL_SOCKET_NTHREADS must be 1 to 16, and NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD"
            + " cannot exceed 64; NCCL's socket transport clamps other values with a warning, so"
            + " the setting silently is not what the spec says. Both must be whole numbers."
            + " Sources: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html ,"
            + " https://github.com/NVIDIA/nccl (src/transport/net_socket.cc)");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    NcclFacts facts = plan.compat().nccl();
    Optional<String> threads = Nccl.get(spec, "NCCL_SOCKET_NTHREADS");
    Optional<String> socks = Nccl.get(spec, "NCCL_NSOCKS_PERTHREAD");
    Optional<Long> t = threads.flatMap(Nccl::integer);
    Optional<Long> s = socks.flatMap(Nccl::integer);
    if (threads.isPresent()
        && (t.isEmpty() || t.get() < 1 || t.get() > facts.socketNthreadsMax())) {
      findings.report(
          Nccl.path("NCCL_SOCKET_NTHREADS"),
          "NCCL_SOCKET_NTHREADS=" + threads.get() + " is not 1.." + facts.socketNthreadsMax(),
          "use a number from 1 to " + facts.socketNthreadsMax());
      return;
    }
    if (socks.isPresent() && (s.isEmpty() || s.get() < 1)) {
      findings.report(
          Nccl.path("NCCL_NSOCKS_PERTHREAD"),
          "NCCL_NSOCKS_PERTHREAD=" + socks.get() + " is not a positive whole number",
          "use a number from 1 to " + facts.socketThreadsTimesSocksMax());
      return;
    }
    long product = t.orElse(1L) * s.orElse(1L);
    if (product > facts.socketThreadsTimesSocksMax()) {
      findings.report(
          Nccl.path(socks.isPresent() ? "NCCL_NSOCKS_PERTHREAD" : "NCCL_SOCKET_NTHREADS"),
          "NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD = "
              + product
              + " exceeds "
              + facts.socketThreadsTimesSocksMax()
              + "; NCCL clamps it",
          "keep the product at " + facts.socketThreadsTimesSocksMax() + " or below");
    }
  }
}
