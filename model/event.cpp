#include "model/event.h"
#include "model/source.h"

#include <algorithm>
#include <array>

namespace rankscope::model {

namespace {
// Stable names: they appear in JSON exports and tests.
constexpr std::array<std::string_view, static_cast<std::size_t>(EventKind::KindCount)> kKindNames = {
    "unknown",
    "torch_watchdog_timeout",
    "torch_watchdog_status",
    "torch_failed_collective_stack",
    "torch_teardown",
    "torch_watchdog_exception",
    "torch_async_nccl_error",
    "torch_nccl_api_error",
    "torch_comm_aborted",
    "torch_heartbeat_stuck",
    "torch_heartbeat_terminate",
    "torch_dump_signal",
    "torch_dump_progress",
    "torch_remote_error",
    "torch_blocking_wait_timeout",
    "torch_desync_report",
    "torch_fingerprint_mismatch",
    "torch_pg_options",
    "torch_pg_environment",
    "torch_comm_created",
    "torch_store_error",
    "torch_unique_id_broadcast",
    "torch_work_update",
    "nccl_version",
    "nccl_env_setting",
    "nccl_init_start",
    "nccl_init_complete",
    "nccl_comm_teardown",
    "nccl_bootstrap",
    "nccl_net_select",
    "nccl_warn",
    "nccl_ib_completion_error",
    "nccl_ib_async_event",
    "nccl_socket_error",
    "nccl_bootstrap_error",
    "nccl_proxy_error",
    "nccl_local_rank_closed",
    "nccl_cuda_failure",
    "nccl_shm_error",
    "nccl_error_chain",
    "launcher_worker_failed",
    "launcher_signal_sent",
    "launcher_failure_record",
    "launcher_error_file",
    "launcher_exit",
    "launcher_rendezvous_error",
    "python_exception",
    "cuda_out_of_memory",
    "cuda_error",
    "fatal_signal",
    "stack_dump",
    "gpu_xid",
    "nic_link_state",
    "pcie_error",
    "host_out_of_memory",
    "gpu_utilization",
    "training_progress",
    "framework_info",
    "flight_recorder_dump",
    "ras_report",
    "ras_dead_process",
    "ras_missing_rank",
    "ras_count_mismatch",
    "horovod_stalled_tensor",
    "gpu_inaccessible",
    "gloo_connect_error",
    "gloo_loopback_fallback",
    "framework_check",
    "nccl_tests_failure",
    "nccl_tests_separate_runs",
    "nccl_tests_stalled",
    "torch_exit_without_destroy",
    "nccl_nvls_setup",
};
// A kind added to the enum without its name here would leave the last names empty.
static_assert(std::all_of(kKindNames.begin(), kKindNames.end(), [](std::string_view n) { return !n.empty(); }),
    "kKindNames: one name per EventKind, in order");
} // namespace

std::string_view eventKindName(EventKind kind)
{
    const auto i = static_cast<std::size_t>(kind);
    return i < kKindNames.size() ? kKindNames[i] : "unknown";
}

bool isCollectiveTimeout(const Event& e)
{
    return e.kind == EventKind::TorchWatchdogTimeout || e.kind == EventKind::TorchBlockingWaitTimeout
        || (e.kind == EventKind::TorchWatchdogException && e.seq >= 0 && e.timeoutMs > 0);
}

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Debug:
        return "debug";
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    case Severity::Fatal:
        return "fatal";
    }
    return "info";
}

std::string_view sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Unknown:
        return "unknown";
    case SourceKind::Log:
        return "log";
    case SourceKind::TorchrunErrorFile:
        return "torchrun_error_file";
    case SourceKind::FlightRecorderPickle:
        return "flight_recorder_pickle";
    case SourceKind::FlightRecorderJson:
        return "flight_recorder_json";
    case SourceKind::RasReport:
        return "ras_report";
    case SourceKind::GpuTelemetry:
        return "gpu_telemetry";
    case SourceKind::Skipped:
        return "skipped";
    }
    return "unknown";
}

} // namespace rankscope::model
