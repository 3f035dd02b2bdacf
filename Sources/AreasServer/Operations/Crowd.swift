import AreasCore
import AreasProtocol

extension Request.Crowd: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        guard let watch = asked.view.crowd?.watch else {
            let service = asked.service
            throw RequestError(.unavailable, service.crowdWatch.withLock({ $0 }) == nil && service.config.crowd != nil
                ? "the crowd places file could not be read (see the daemon's log); no hotspots are known"
                : "no people density is configured: add a top-level \"crowd\" (format seoul-citydata, places, keyEnv) to the config")
        }
        if let view { watch.touch(view: view) }
        Answers.crowd(watch, form: asked.form, into: &writer)
    }
}
