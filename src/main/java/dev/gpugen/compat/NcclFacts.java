package dev.gpugen.compat;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What NCCL accepts in the environment variables gpugen checks (NCCL environment documentation,
 * NCCL's parameter parser and socket transport, aws-ofi-nccl's network name).
 *
 * @param netNames the network names {@code NCCL_NET} may select (NCCL's own and aws-ofi-nccl's)
 * @param netGdrLevels the words {@code NCCL_NET_GDR_LEVEL} accepts
 * @param p2pLevels the words {@code NCCL_P2P_LEVEL} accepts
 * @param maxLevelInteger the largest legacy integer level (SYS); larger ones also mean SYS
 * @param algorithms the {@code NCCL_ALGO} names
 * @param protocols the {@code NCCL_PROTO} names
 * @param debugLevels the {@code NCCL_DEBUG} levels
 * @param socketNthreadsMax the largest {@code NCCL_SOCKET_NTHREADS}
 * @param socketThreadsTimesSocksMax the largest {@code NCCL_SOCKET_NTHREADS} times {@code
 *     NCCL_NSOCKS_PERTHREAD}
 * @param sources the URLs the values come from
 */
public record NcclFacts(
    List<String> netNames,
    List<String> netGdrLevels,
    List<String> p2pLevels,
    int maxLevelInteger,
    List<String> algorithms,
    List<String> protocols,
    List<String> debugLevels,
    int socketNthreadsMax,
    int socketThreadsTimesSocksMax,
    List<String> sources)
    implements CompatRow {
  public NcclFacts {
    netNames = List.copyOf(netNames);
    netGdrLevels = List.copyOf(netGdrLevels);
    p2pLevels = List.copyOf(p2pLevels);
    algorithms = List.copyOf(algorithms);
    protocols = List.copyOf(protocols);
    debugLevels = List.copyOf(debugLevels);
    sources = List.copyOf(sources);
  }

  /** The name from {@code names} that equals {@code value} ignoring case, as NCCL matches. */
  public static Optional<String> match(List<String> names, String value) {
    Objects.requireNonNull(value);
    String v = value.toLowerCase(Locale.ROOT);
    return names.stream().filter(n -> n.toLowerCase(Locale.ROOT).equals(v)).findFirst();
  }

  @Override
  public String key() {
    return "nccl";
  }
}
