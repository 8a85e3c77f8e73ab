"""The headless table of ``dealer-console simulate``: a random dealer and players acting
through the table controller (:mod:`.dealer`), the world of simulated devices behind the real
drivers (:mod:`.world`), their random choices (:mod:`.choices`), the run's summary
(:mod:`.summary`) and the command (:mod:`.run`)."""
