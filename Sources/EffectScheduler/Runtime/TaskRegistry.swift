/// The tasks one run has seen, keyed by the runtime's task id and numbered in creation order.
struct TaskRegistry {
  struct Record {
    var info: TaskInfo
    var segments = 0
    var lastStep: Int?
    var nameResolved = false
    var completed = false
    var cancelled = false
    /// What the task said it waits on before it suspended, for deadlock reports.
    var waitingOn: String?
  }

  private(set) var records: [Record] = []
  private var indexByRuntimeID: [UInt64: Int] = Dictionary(minimumCapacity: 8)

  subscript(id: TaskID) -> Record {
    get { records[id.rawValue] }
    set { records[id.rawValue] = newValue }
  }

  func id(forRuntimeID runtimeID: UInt64) -> TaskID? {
    indexByRuntimeID[runtimeID].map(TaskID.init(rawValue:))
  }

  /// Registers a task the first time one of its jobs is seen, which is when it is created.
  mutating func register(runtimeID: UInt64, flags: JobFlags, parent: TaskID?) -> TaskID {
    let id = TaskID(records.count)
    let kind: TaskInfo.Kind =
      records.isEmpty ? .root
      : flags.isAsyncLetChild ? .asyncLet
      : flags.isGroupChild ? .groupChild
      : .unstructured
    records.append(Record(info: TaskInfo(id: id, name: nil, parent: parent, kind: kind)))
    indexByRuntimeID[runtimeID] = id.rawValue
    return id
  }

  var infos: [TaskInfo] { records.map(\.info) }
}
